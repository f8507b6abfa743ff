import assert from 'node:assert/strict';

import type { WebhookRecord } from '../../actors/runtime/ports/records.js';
import type { Stores } from '../../actors/runtime/ports/stores.js';
import { nextId } from './records.js';

function aWebhook(overrides: Partial<WebhookRecord> = {}): WebhookRecord {
  const id = nextId();
  return {
    id,
    guild_id: nextId(),
    channel_id: nextId(),
    creator_id: nextId(),
    creator_json: '{"id":"1","username":"maker"}',
    name: `hook ${id}`,
    avatar: null,
    token: 'a'.repeat(68),
    ...overrides,
  };
}

/** WebhookStore cases of the storage contract. */
export function webhookStoreContract(stores: () => Stores): void {
  const webhooks = () => stores().webhooks;

  it('returns a created webhook by id, and nothing for an unknown id', async () => {
    const webhook = aWebhook();
    await webhooks().create(webhook);
    assert.deepEqual(await webhooks().get(webhook.id), webhook);
    assert.equal(await webhooks().get(nextId()), undefined);
  });

  it('lists the webhooks of a channel and of a guild, oldest first', async () => {
    const guildId = nextId();
    const channelId = nextId();
    const first = aWebhook({ guild_id: guildId, channel_id: channelId });
    const second = aWebhook({ guild_id: guildId, channel_id: channelId });
    const elsewhere = aWebhook({ guild_id: guildId });
    for (const webhook of [first, second, elsewhere, aWebhook()]) await webhooks().create(webhook);
    assert.deepEqual(await webhooks().listByChannel(channelId), [first, second]);
    assert.deepEqual(await webhooks().listByGuild(guildId), [first, second, elsewhere]);
    assert.deepEqual(await webhooks().listByChannel(nextId()), []);
  });

  it('replaces name and avatar on update, in every listing', async () => {
    const webhook = aWebhook();
    await webhooks().create(webhook);
    const changed = { ...webhook, name: 'renamed', avatar: 'abc' };
    await webhooks().update(changed);
    assert.deepEqual(await webhooks().get(webhook.id), changed);
    assert.deepEqual(await webhooks().listByChannel(webhook.channel_id), [changed]);
    assert.deepEqual(await webhooks().listByGuild(webhook.guild_id ?? ''), [changed]);
    const absent = aWebhook();
    await webhooks().update(absent);
    assert.equal(await webhooks().get(absent.id), undefined);
  });

  it('deletes a webhook from every listing', async () => {
    const webhook = aWebhook();
    await webhooks().create(webhook);
    await webhooks().delete(webhook.id);
    await webhooks().delete(nextId());
    assert.equal(await webhooks().get(webhook.id), undefined);
    assert.deepEqual(await webhooks().listByChannel(webhook.channel_id), []);
    assert.deepEqual(await webhooks().listByGuild(webhook.guild_id ?? ''), []);
  });
}
