import assert from 'node:assert/strict';
import { LARGE_GUILD_MEMBERS, memberPresence } from '../../../actors/guild/guildPresences.js';
import type { GuildRuntime } from '../../../actors/guild/GuildRuntime.js';

interface Sent {
  /** Sent through sendToBots: only the subscribed bots are walked. */
  readonly botsOnly: boolean;
  readonly audience: (userId: string) => boolean;
  readonly exempt: ((userId: string) => boolean) | undefined;
}

/** A Guild runtime holding only what memberPresence reads: members (one bot, the rest people) and presences. */
function guildOf(memberCount: number): { rt: GuildRuntime; sent: Sent[] } {
  const members = new Map<string, { user: Record<string, unknown> }>();
  members.set('bot', { user: { id: 'bot', bot: true } });
  for (let index = 1; index < memberCount; index += 1) members.set(`u${index}`, { user: { id: `u${index}` } });
  const sent: Sent[] = [];
  const fanout = {
    send(
      _event: unknown,
      audience: (userId: string) => boolean,
      _always?: string,
      exempt?: (userId: string) => boolean,
    ) {
      sent.push({ botsOnly: false, audience, exempt });
    },
    sendToBots(_event: unknown, audience: (userId: string) => boolean) {
      sent.push({ botsOnly: true, audience, exempt: undefined });
    },
  };
  const rt = {
    state: { id: 'g', members, presences: new Map() },
    fanout,
    largeGuildMembers: LARGE_GUILD_MEMBERS,
  } as unknown as GuildRuntime;
  return { rt, sent };
}

const goesIdle = { userId: 'u1', status: 'idle', activitiesJson: '[]', clientStatusJson: '{"web":"idle"}' };

describe('guild presence fan-out', () => {
  it('sends a member status change to people whatever their intents, and to bots by intent, in a small guild', () => {
    const { rt, sent } = guildOf(LARGE_GUILD_MEMBERS);
    memberPresence(rt, goesIdle);
    const [update] = sent;
    assert.ok(update);
    assert.equal(update.botsOnly, false);
    assert.deepEqual(
      ['u2', 'bot', 'u1'].map((user) => update.audience(user)),
      [true, true, false],
    );
    assert.deepEqual(
      ['u2', 'bot'].map((user) => update.exempt?.(user) ?? false),
      [true, false],
    );
  });

  it('keeps people passive in a large guild: only bots (by intent) hear a member change status', () => {
    const { rt, sent } = guildOf(LARGE_GUILD_MEMBERS + 1);
    memberPresence(rt, goesIdle);
    const [update] = sent;
    assert.ok(update);
    assert.equal(update.botsOnly, true, 'only the subscribed bots are walked');
    assert.deepEqual(
      ['bot', 'u1'].map((user) => update.audience(user)),
      [true, false],
    );
  });
});
