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

  it('keeps reaching a user through the sessions left after one unsubscribes, and forgets the user with the last', () => {
    const { calls, fanout } = recorder();
    fanout.subscribe('s1', 'u1', GUILDS);
    fanout.subscribe('s2', 'u1', GUILDS);
    fanout.unsubscribe('s1');
    fanout.send(dispatchEvent('GUILD_UPDATE', {}));
    assert.deepEqual(calls[0]?.ids, ['s2']);
    assert.deepEqual(fanout.sessionsOf('u1'), ['s2']);
    fanout.unsubscribe('s2');
    assert.equal(fanout.size, 0);
    assert.deepEqual([...fanout.subscribedUsers()], []);
  });
  it("sends a large guild's presences to subscribed bots alone, asking no other user, and sorts bots again on activation", () => {
    const calls: string[][] = [];
    const bots = new Set<string>();
    const fanout = new GuildFanout((ids) => calls.push([...ids]), {
      large: () => true,
      isBot: (userId) => bots.has(userId),
      hasAnyRole: () => false,
    });
    // Subscriptions load beside the guild's state: nobody is known as a bot yet.
    fanout.subscribe('s1', 'bot1', BigInt(GatewayIntent.GUILD_PRESENCES));
    fanout.subscribe('s2', 'human', BigInt(GatewayIntent.GUILD_PRESENCES));
    fanout.subscribe('s3', 'bot2', GUILDS); // no GUILD_PRESENCES
    bots.add('bot1').add('bot2');
    fanout.recountBots();
    fanout.subscribe('s4', 'bot3', BigInt(GatewayIntent.GUILD_PRESENCES));
    bots.add('bot3');
    fanout.subscribe('s5', 'bot3', BigInt(GatewayIntent.GUILD_PRESENCES)); // a second session: bot3 was already sorted
    const asked: string[] = [];
    fanout.sendToBots(dispatchEvent('PRESENCE_UPDATE', {}), (userId) => {
      asked.push(userId);
      return true;
    });
    assert.deepEqual(calls, [['s1']]);
    assert.deepEqual(asked, ['bot1']);
    fanout.unsubscribeUser('bot1');
    fanout.sendToBots(dispatchEvent('PRESENCE_UPDATE', {}), () => true);
    assert.deepEqual(calls, [['s1']], 'an unsubscribed bot is reached no more');
    assert.equal(fanout.userCount, 3);
  });
});
