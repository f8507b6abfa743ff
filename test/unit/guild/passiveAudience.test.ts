import assert from 'node:assert/strict';
import { GuildFanout } from '../../../actors/guild/GuildFanout.js';
import { namedBy, passiveAudience, type GuildPassivity } from '../../../actors/guild/passiveAudience.js';
import type { DispatchEvent } from '../../../proto/gen/chorus/v1/common.js';
import { GatewayIntent } from '../../../src/domain/intents.js';

const ALL = BigInt(Object.values(GatewayIntent).reduce((mask, flag) => mask | flag, 0));

function guild(large: boolean): GuildPassivity {
  const roles = new Map([['roleHolder', ['r1']]]);
  return {
    large: () => large,
    isBot: (userId) => userId === 'bot',
    hasAnyRole: (userId, roleIds) => (roles.get(userId) ?? []).some((id) => roleIds.has(id)),
  };
}

function message(extra: Record<string, unknown> = {}): DispatchEvent {
  const data = {
    id: 'm',
    author: { id: 'author' },
    mentions: [],
    mention_roles: [],
    mention_everyone: false,
    ...extra,
  };
  return { event: 'MESSAGE_CREATE', dataJson: JSON.stringify(data), intent: GatewayIntent.GUILD_MESSAGES };
}

const typing: DispatchEvent = { event: 'TYPING_START', dataJson: '{"user_id":"author"}', intent: 0 };
const channelUpdate: DispatchEvent = { event: 'CHANNEL_UPDATE', dataJson: '{}', intent: GatewayIntent.GUILDS };

describe('passive sessions in large guilds', () => {
  it('names the author, mentioned users and mentioned roles of a MESSAGE_CREATE, nobody for other events', () => {
    const named = namedBy(message({ mentions: [{ id: 'u1' }], mention_roles: ['r1'] }));
    assert.deepEqual([...named.users].sort(), ['author', 'u1']);
    assert.deepEqual([...named.roles], ['r1']);
    assert.equal(namedBy(typing).users.size, 0);
    assert.equal(namedBy({ ...message(), dataJson: 'not json' }).users.size, 0);
  });

  it('does not apply in small guilds, to stateful events or to @everyone', () => {
    assert.equal(passiveAudience(message(), guild(false)), undefined);
    assert.equal(passiveAudience(channelUpdate, guild(true)), undefined);
    assert.equal(passiveAudience(message({ mention_everyone: true }), guild(true)), undefined);
  });

  it('lets bots, the author and the mentioned through in a large guild', () => {
    const rule = passiveAudience(message({ mentions: [{ id: 'u1' }], mention_roles: ['r1'] }), guild(true));
    assert.ok(rule);
    for (const userId of ['bot', 'author', 'u1', 'roleHolder']) assert.equal(rule(userId), true, userId);
    assert.equal(rule('u2'), false);
    const typingRule = passiveAudience(typing, guild(true));
    assert.ok(typingRule);
    assert.equal(typingRule('author'), false); // typing names nobody: only active sessions and bots
    assert.equal(typingRule('bot'), true);
  });

  it('GuildFanout sends non-stateful events to active, bot and named sessions only when the guild is large', () => {
    let large = true;
    const sent: { ids: string[]; event: string }[] = [];
    const fanout = new GuildFanout((ids, event) => sent.push({ ids: [...ids].sort(), event: event.event }), {
      ...guild(true),
      large: () => large,
    });
    fanout.subscribe('sBot', 'bot', ALL);
    fanout.subscribe('sPassive', 'u2', ALL);
    fanout.subscribe('sActive', 'u3', ALL);
    fanout.subscribe('sMentioned', 'u1', ALL);
    assert.equal(fanout.activate('sActive'), true);
    assert.equal(fanout.activate('unknown'), false);
    fanout.subscribe('sActive', 'u3', ALL); // subscribing again keeps the activity
    fanout.send(message({ mentions: [{ id: 'u1' }] }));
    fanout.send(typing);
    fanout.send(channelUpdate);
    assert.deepEqual(sent, [
      { ids: ['sActive', 'sBot', 'sMentioned'], event: 'MESSAGE_CREATE' },
      { ids: ['sActive', 'sBot'], event: 'TYPING_START' },
      { ids: ['sActive', 'sBot', 'sMentioned', 'sPassive'], event: 'CHANNEL_UPDATE' },
    ]);
    sent.length = 0;
    large = false;
    fanout.send(typing);
    assert.deepEqual(sent, [{ ids: ['sActive', 'sBot', 'sMentioned', 'sPassive'], event: 'TYPING_START' }]);
    sent.length = 0;
    large = true;
    fanout.unsubscribe('sActive');
    fanout.subscribe('sActive', 'u3', ALL); // an unsubscribe clears the activity
    fanout.send(typing);
    assert.deepEqual(sent, [{ ids: ['sBot'], event: 'TYPING_START' }]);
  });
});
