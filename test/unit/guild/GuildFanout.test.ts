import assert from 'node:assert/strict';
import { GuildFanout, dispatchEvent } from '../../../actors/guild/GuildFanout.js';
import type { DispatchEvent } from '../../../proto/gen/chorus/v1/common.js';
import { GatewayIntent } from '../../../src/domain/intents.js';

function recorder(): { calls: { ids: readonly string[]; event: DispatchEvent }[]; fanout: GuildFanout } {
  const calls: { ids: readonly string[]; event: DispatchEvent }[] = [];
  return { calls, fanout: new GuildFanout((ids, event) => calls.push({ ids, event })) };
}

const GUILDS = 1n << 0n;
const GUILD_MEMBERS = 1n << 1n;

describe('GuildFanout', () => {
  it('gates a guild dispatch by the intent its event needs in a guild', () => {
    assert.equal(dispatchEvent('GUILD_UPDATE', {}).intent, GatewayIntent.GUILDS);
    assert.equal(dispatchEvent('GUILD_MEMBER_ADD', {}).intent, GatewayIntent.GUILD_MEMBERS);
    assert.equal(dispatchEvent('INVITE_CREATE', {}).intent, GatewayIntent.GUILD_INVITES);
  });

  it('sends one batch to the sessions whose intents allow the event', () => {
    const { calls, fanout } = recorder();
    fanout.subscribe('s1', 'u1', GUILDS);
    fanout.subscribe('s2', 'u2', GUILDS | GUILD_MEMBERS);
    fanout.subscribe('s3', 'u3', GUILD_MEMBERS);
    fanout.send(dispatchEvent('GUILD_UPDATE', { id: '1' }));
    assert.equal(calls.length, 1);
    assert.deepEqual([...(calls[0]?.ids ?? [])].sort(), ['s1', 's2']);
    assert.equal(calls[0]?.event.dataJson, '{"id":"1"}');
  });

  it('asks the audience once per user, not once per session', () => {
    const { calls, fanout } = recorder();
    fanout.subscribe('s1', 'u1', GUILDS);
    fanout.subscribe('s2', 'u1', GUILDS);
    fanout.subscribe('s3', 'u2', GUILDS);
    const asked: string[] = [];
    fanout.send(dispatchEvent('CHANNEL_UPDATE', {}), (userId) => {
      asked.push(userId);
      return userId === 'u1';
    });
    assert.deepEqual(asked.sort(), ['u1', 'u2']);
    assert.deepEqual([...(calls[0]?.ids ?? [])].sort(), ['s1', 's2']);
  });

  it('sends to the named user regardless of intents, marked ungated, sharing the payload', () => {
    const { calls, fanout } = recorder();
    fanout.subscribe('s1', 'u1', 0n);
    fanout.subscribe('s2', 'u2', 0n);
    fanout.subscribe('s3', 'u3', GUILD_MEMBERS);
    fanout.send(dispatchEvent('GUILD_MEMBER_UPDATE', {}), undefined, 'u1');
    assert.deepEqual(
      calls.map((call) => [call.ids, call.event.intent]),
      [
        [['s3'], GatewayIntent.GUILD_MEMBERS],
        [['s1'], 0],
      ],
    );
  });

  it('does not call fanOut when nobody qualifies', () => {
    const { calls, fanout } = recorder();
    fanout.subscribe('s1', 'u1', 0n);
    fanout.send(dispatchEvent('GUILD_UPDATE', {}));
    assert.equal(calls.length, 0);
  });

  it('drops every session of a user', () => {
    const { fanout } = recorder();
    fanout.subscribe('s1', 'u1', GUILDS);
    fanout.subscribe('s2', 'u1', GUILDS);
    fanout.subscribe('s3', 'u2', GUILDS);
    assert.deepEqual(fanout.unsubscribeUser('u1').sort(), ['s1', 's2']);
    assert.deepEqual([...fanout.subscribedUsers()], ['u2']);
  });
});
