import assert from 'node:assert/strict';
import { GuildState } from '../../../actors/guild/GuildState.js';
import {
  canManageRole,
  canView,
  highestPosition,
  memberPermissions,
  outranks,
  permissionsIn,
  requireChannelPermission,
  requireGrantable,
  requireGuildPermission,
} from '../../../actors/guild/guildPermissions.js';
import { ALL_PERMISSIONS, DEFAULT_EVERYONE_PERMISSIONS, Permission } from '../../../src/domain/permissions.js';
import { MissingAccessError, MissingPermissionsError, UnknownEntityError } from '../../../src/domain/errors.js';
import { aChannel, aGuild, aMember, aRole } from '../../contract/records.js';

const GUILD = '1000';
const OWNER = '1';

/** A guild with @everyone (defaults), moderator (2), admin (3), helper (1) roles and one text channel. */
function aGuildState(): GuildState {
  const state = new GuildState(aGuild({ id: GUILD, owner_id: OWNER }));
  state.putRole(
    aRole({ guild_id: GUILD, id: GUILD, position: 0, permissions: DEFAULT_EVERYONE_PERMISSIONS.toString() }),
  );
  state.putRole(
    aRole({ guild_id: GUILD, id: 'helper', position: 1, permissions: Permission.MANAGE_NICKNAMES.toString() }),
  );
  state.putRole(
    aRole({
      guild_id: GUILD,
      id: 'mod',
      position: 2,
      permissions: (Permission.KICK_MEMBERS | Permission.MANAGE_ROLES).toString(),
    }),
  );
  state.putRole(aRole({ guild_id: GUILD, id: 'admin', position: 3, permissions: Permission.ADMINISTRATOR.toString() }));
  for (const [userId, roles] of [
    [OWNER, []],
    ['10', []],
    ['11', ['helper']],
    ['12', ['mod']],
    ['13', ['admin']],
    ['14', ['mod']],
  ] as const) {
    state.members.set(userId, aMember({ guild_id: GUILD, user_id: userId, roles: [...roles] }));
  }
  state.putChannel(aChannel({ id: '2001', guild_id: GUILD }));
  return state;
}

function withOverwrites(
  state: GuildState,
  overwrites: { id: string; type: number; allow: bigint; deny: bigint }[],
): void {
  const channel = state.channels.get('2001');
  assert.ok(channel);
  state.putChannel({
    ...channel,
    permission_overwrites: overwrites.map((o) => ({ ...o, allow: o.allow.toString(), deny: o.deny.toString() })),
  });
}

describe('guild permissions', () => {
  describe('permissionsIn', () => {
    it('gives the owner every permission even when an overwrite denies them everything', () => {
      const state = aGuildState();
      withOverwrites(state, [{ id: OWNER, type: 1, allow: 0n, deny: ALL_PERMISSIONS }]);
      assert.equal(permissionsIn(state, OWNER, '2001'), ALL_PERMISSIONS);
    });

    it('gives an administrator every permission and ignores an @everyone deny', () => {
      const state = aGuildState();
      withOverwrites(state, [{ id: GUILD, type: 0, allow: 0n, deny: Permission.VIEW_CHANNEL }]);
      assert.equal(permissionsIn(state, '13', '2001'), ALL_PERMISSIONS);
    });

    it('hides a channel whose @everyone overwrite denies VIEW_CHANNEL', () => {
      const state = aGuildState();
      withOverwrites(state, [{ id: GUILD, type: 0, allow: 0n, deny: Permission.VIEW_CHANNEL }]);
      assert.equal(permissionsIn(state, '10', '2001'), 0n);
      assert.equal(canView(state, '10', '2001'), false);
    });

    it('lets a role allow beat the @everyone deny', () => {
      const state = aGuildState();
      withOverwrites(state, [
        { id: GUILD, type: 0, allow: 0n, deny: Permission.VIEW_CHANNEL },
        { id: 'helper', type: 0, allow: Permission.VIEW_CHANNEL, deny: 0n },
      ]);
      assert.equal(canView(state, '11', '2001'), true);
      assert.equal(canView(state, '10', '2001'), false);
    });

    it('lets a member deny beat a role allow', () => {
      const state = aGuildState();
      withOverwrites(state, [
        { id: 'helper', type: 0, allow: Permission.SEND_MESSAGES, deny: 0n },
        { id: '11', type: 1, allow: 0n, deny: Permission.SEND_MESSAGES },
      ]);
      assert.equal(permissionsIn(state, '11', '2001') & Permission.SEND_MESSAGES, 0n);
    });

    it('leaves a timed-out member only VIEW_CHANNEL and READ_MESSAGE_HISTORY', () => {
      const state = aGuildState();
      const member = state.members.get('10');
      assert.ok(member);
      member.communication_disabled_until = new Date(Date.now() + 60_000).toISOString();
      assert.equal(permissionsIn(state, '10', '2001'), Permission.VIEW_CHANNEL | Permission.READ_MESSAGE_HISTORY);
      assert.equal(memberPermissions(state, '10') & Permission.SEND_MESSAGES, 0n);
    });

    it('ignores a timeout that has already ended', () => {
      const state = aGuildState();
      const member = state.members.get('10');
      assert.ok(member);
      member.communication_disabled_until = new Date(Date.now() - 60_000).toISOString();
      assert.notEqual(permissionsIn(state, '10', '2001') & Permission.SEND_MESSAGES, 0n);
    });

    it('answers 0 for a non-member and for an unknown channel', () => {
      const state = aGuildState();
      assert.equal(permissionsIn(state, '99', '2001'), 0n);
      assert.equal(permissionsIn(state, '10', 'nope'), 0n);
    });
  });

  describe('role hierarchy', () => {
    it('ranks the owner above everyone and a non-member below everyone', () => {
      const state = aGuildState();
      assert.equal(highestPosition(state, OWNER), Number.POSITIVE_INFINITY);
      assert.equal(highestPosition(state, '10'), 0);
      assert.equal(highestPosition(state, '13'), 3);
      assert.equal(highestPosition(state, '99'), -1);
    });

    it('lets a higher top role act on a lower one, never on an equal one or on the owner', () => {
      const state = aGuildState();
      assert.equal(outranks(state, '12', '11'), true);
      assert.equal(outranks(state, '11', '12'), false);
      assert.equal(outranks(state, '12', '14'), false);
      assert.equal(outranks(state, '12', '12'), false);
      assert.equal(outranks(state, '13', OWNER), false);
      assert.equal(outranks(state, OWNER, '13'), true);
    });

    it('lets a member manage only roles below their top role (the owner manages all)', () => {
      const state = aGuildState();
      const helper = state.roles.get('helper');
      const mod = state.roles.get('mod');
      const admin = state.roles.get('admin');
      assert.ok(helper && mod && admin);
      assert.equal(canManageRole(state, '12', helper), true);
      assert.equal(canManageRole(state, '12', mod), false);
      assert.equal(canManageRole(state, '13', admin), false);
      assert.equal(canManageRole(state, OWNER, admin), true);
    });
  });

  describe('requirements', () => {
    it('answers 404 Unknown Guild to a non-member and 403 50013 to a member without the bit', () => {
      const state = aGuildState();
      assert.throws(() => {
        requireGuildPermission(state, '99', Permission.KICK_MEMBERS);
      }, UnknownEntityError);
      assert.throws(
        () => {
          requireGuildPermission(state, '10', Permission.KICK_MEMBERS);
        },
        (error: unknown) => error instanceof MissingPermissionsError && error.discordCode === 50_013,
      );
      assert.doesNotThrow(() => {
        requireGuildPermission(state, '12', Permission.KICK_MEMBERS);
      });
    });

    it('answers 403 50001 for a channel the member cannot see', () => {
      const state = aGuildState();
      withOverwrites(state, [{ id: GUILD, type: 0, allow: 0n, deny: Permission.VIEW_CHANNEL }]);
      assert.throws(() => requireChannelPermission(state, '10', '2001', Permission.SEND_MESSAGES), MissingAccessError);
    });

    it('refuses to grant bits the actor lacks, unless the actor is an administrator', () => {
      const state = aGuildState();
      assert.throws(() => {
        requireGrantable(state, '12', Permission.BAN_MEMBERS);
      }, MissingPermissionsError);
      assert.doesNotThrow(() => {
        requireGrantable(state, '12', Permission.KICK_MEMBERS | Permission.VIEW_CHANNEL);
      });
      assert.doesNotThrow(() => {
        requireGrantable(state, '13', Permission.BAN_MEMBERS);
      });
    });
  });
});
