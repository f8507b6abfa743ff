import assert from 'node:assert/strict';
import { GuildState } from '../../../actors/guild/GuildState.js';
import { canView, viewerTest } from '../../../actors/guild/guildPermissions.js';
import { Permission } from '../../../src/domain/permissions.js';
import { aChannel, aGuild, aMember, aRole } from '../../contract/records.js';

const GUILD = '1000';
const OWNER = '1';
const CHANNEL = '2001';
const ROLES = ['r1', 'r2', 'r3', 'r4'];
const USERS = Array.from({ length: 40 }, (_, index) => String(index + 1));

/** A small deterministic generator (mulberry32), so a failing case can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** VIEW_CHANNEL, ADMINISTRATOR or nothing, at random. */
function bits(next: () => number): bigint {
  const roll = next();
  if (roll < 0.4) return Permission.VIEW_CHANNEL;
  if (roll < 0.45) return Permission.ADMINISTRATOR;
  return 0n;
}

/** A guild whose roles, members (role lists from a few roles, so many share one) and overwrites are random. */
function randomGuild(seed: number): GuildState {
  const next = random(seed);
  const state = new GuildState(aGuild({ id: GUILD, owner_id: OWNER }));
  state.putRole(aRole({ guild_id: GUILD, id: GUILD, position: 0, permissions: bits(next).toString() }));
  ROLES.forEach((id, index) => {
    state.putRole(aRole({ guild_id: GUILD, id, position: index + 1, permissions: bits(next).toString() }));
  });
  for (const userId of USERS) {
    if (next() < 0.1) continue; // not a member
    const roles = ROLES.filter(() => next() < 0.3);
    state.members.set(userId, aMember({ guild_id: GUILD, user_id: userId, roles }));
  }
  const overwrites = [GUILD, ...ROLES, ...USERS]
    .filter(() => next() < 0.2)
    .map((id) => ({
      id,
      type: USERS.includes(id) ? 1 : 0,
      allow: (next() < 0.5 ? Permission.VIEW_CHANNEL : 0n).toString(),
      deny: (next() < 0.5 ? Permission.VIEW_CHANNEL : 0n).toString(),
    }));
  state.putChannel(aChannel({ id: CHANNEL, guild_id: GUILD, permission_overwrites: overwrites }));
  return state;
}

describe('viewerTest: who may see a channel, asked for many users in one send', () => {
  it('answers exactly as canView for every user across 500 random guilds', () => {
    for (let seed = 1; seed <= 500; seed += 1) {
      const state = randomGuild(seed);
      const sees = viewerTest(state, CHANNEL);
      for (const userId of USERS) {
        assert.equal(sees(userId), canView(state, userId, CHANNEL), `seed ${seed}, user ${userId}`);
      }
    }
  });

  it('keeps a member overwrite to its member when another member has the same roles', () => {
    const state = randomGuild(1);
    state.putRole(aRole({ guild_id: GUILD, id: GUILD, position: 0, permissions: Permission.VIEW_CHANNEL.toString() }));
    state.members.set('7', aMember({ guild_id: GUILD, user_id: '7', roles: [] }));
    state.members.set('8', aMember({ guild_id: GUILD, user_id: '8', roles: [] }));
    const denied = { id: '8', type: 1, allow: '0', deny: Permission.VIEW_CHANNEL.toString() };
    state.putChannel(aChannel({ id: CHANNEL, guild_id: GUILD, permission_overwrites: [denied] }));
    const sees = viewerTest(state, CHANNEL);
    assert.deepEqual([sees('7'), sees('8')], [true, false]);
  });

  it('lets nobody see a channel the guild does not have', () => {
    const sees = viewerTest(randomGuild(2), '9999');
    assert.deepEqual(
      USERS.filter((userId) => sees(userId)),
      [],
    );
  });
});
