import type { GuildRecord, InviteRecord, MemberRecord, RoleRecord } from '../../../actors/runtime/ports/records.js';
import type { GuildStore } from '../../../actors/runtime/ports/stores.js';
import { ConflictError } from '../../domain/errors.js';
import { fromJson, type SqliteDatabase } from './SqliteDatabase.js';

/** GuildStore on SQLite: the guild row, its roles, members and invites, and (on delete) its channels. */
export class SqliteGuildStore implements GuildStore {
  readonly #getGuild;
  readonly #saveGuild;
  readonly #deleteCascade;
  readonly #listRoles;
  readonly #saveRole;
  readonly #deleteRole;
  readonly #listMembers;
  readonly #saveMember;
  readonly #deleteMember;
  readonly #guildIdsOfUser;
  readonly #listInvites;
  readonly #getInvite;
  readonly #saveInvite;
  readonly #deleteInvite;

  constructor(private readonly db: SqliteDatabase) {
    const c = db.connection;
    this.#getGuild = c.prepare<[string], string>('SELECT data FROM guilds WHERE id = ?').pluck();
    this.#saveGuild = c.prepare<[string, string]>(
      'INSERT INTO guilds (id, data) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET data = excluded.data',
    );
    const cascade = [
      'DELETE FROM invites WHERE guild_id = ?',
      'DELETE FROM members WHERE guild_id = ?',
      'DELETE FROM roles WHERE guild_id = ?',
      'DELETE FROM channel_recipients WHERE channel_id IN (SELECT id FROM channels WHERE guild_id = ?)',
      'DELETE FROM channels WHERE guild_id = ?',
      'DELETE FROM guilds WHERE id = ?',
    ].map((sql) => c.prepare<[string]>(sql));
    this.#deleteCascade = db.transaction((guildId: string) => {
      for (const statement of cascade) statement.run(guildId);
    });

    this.#listRoles = c
      .prepare<[string], string>('SELECT data FROM roles WHERE guild_id = ? ORDER BY length(id), id')
      .pluck();
    this.#saveRole = c.prepare<[string, string, string]>(
      'INSERT INTO roles (guild_id, id, data) VALUES (?, ?, ?) ON CONFLICT (guild_id, id) DO UPDATE SET data = excluded.data',
    );
    this.#deleteRole = c.prepare<[string, string]>('DELETE FROM roles WHERE guild_id = ? AND id = ?');

    this.#listMembers = c
      .prepare<[string], string>('SELECT data FROM members WHERE guild_id = ? ORDER BY length(user_id), user_id')
      .pluck();
    this.#saveMember = c.prepare<[string, string, string]>(
      `INSERT INTO members (guild_id, user_id, data) VALUES (?, ?, ?)
       ON CONFLICT (guild_id, user_id) DO UPDATE SET data = excluded.data`,
    );
    this.#deleteMember = c.prepare<[string, string]>('DELETE FROM members WHERE guild_id = ? AND user_id = ?');
    this.#guildIdsOfUser = c
      .prepare<[string], string>('SELECT guild_id FROM members WHERE user_id = ? ORDER BY length(guild_id), guild_id')
      .pluck();

    this.#listInvites = c
      .prepare<[string], string>('SELECT data FROM invites WHERE guild_id = ? ORDER BY code')
      .pluck();
    this.#getInvite = c.prepare<[string], string>('SELECT data FROM invites WHERE code = ?').pluck();
    // Replaces only the same invite (same guild and channel); a code held by another invite changes nothing.
    this.#saveInvite = c.prepare<[string, string | null, string, string]>(
      `INSERT INTO invites (code, guild_id, channel_id, data) VALUES (?, ?, ?, ?)
       ON CONFLICT (code) DO UPDATE SET data = excluded.data
       WHERE invites.guild_id IS excluded.guild_id AND invites.channel_id = excluded.channel_id`,
    );
    this.#deleteInvite = c.prepare<[string]>('DELETE FROM invites WHERE code = ?');
  }

  getGuild(id: string): Promise<GuildRecord | undefined> {
    return this.db.call(() => {
      const data = this.#getGuild.get(id);
      return data === undefined ? undefined : fromJson<GuildRecord>(data);
    });
  }

  saveGuild(guild: GuildRecord): Promise<void> {
    return this.db.call(() => void this.#saveGuild.run(guild.id, JSON.stringify(guild)));
  }

  /** Deletes the guild, its invites, members, roles and channels in one transaction. */
  deleteGuild(id: string): Promise<void> {
    return this.db.call(() => {
      this.#deleteCascade(id);
    });
  }

  listRoles(guildId: string): Promise<RoleRecord[]> {
    return this.db.call(() => this.#listRoles.all(guildId).map((data) => fromJson<RoleRecord>(data)));
  }

  saveRole(role: RoleRecord): Promise<void> {
    return this.db.call(() => void this.#saveRole.run(role.guild_id, role.id, JSON.stringify(role)));
  }

  deleteRole(guildId: string, roleId: string): Promise<void> {
    return this.db.call(() => void this.#deleteRole.run(guildId, roleId));
  }

  listMembers(guildId: string): Promise<MemberRecord[]> {
    return this.db.call(() => this.#listMembers.all(guildId).map((data) => fromJson<MemberRecord>(data)));
  }

  saveMember(member: MemberRecord): Promise<void> {
    return this.db.call(() => void this.#saveMember.run(member.guild_id, member.user_id, JSON.stringify(member)));
  }

  deleteMember(guildId: string, userId: string): Promise<void> {
    return this.db.call(() => void this.#deleteMember.run(guildId, userId));
  }

  guildIdsOfUser(userId: string): Promise<string[]> {
    return this.db.call(() => this.#guildIdsOfUser.all(userId));
  }

  listInvites(guildId: string): Promise<InviteRecord[]> {
    return this.db.call(() => this.#listInvites.all(guildId).map((data) => fromJson<InviteRecord>(data)));
  }

  getInvite(code: string): Promise<InviteRecord | undefined> {
    return this.db.call(() => {
      const data = this.#getInvite.get(code);
      return data === undefined ? undefined : fromJson<InviteRecord>(data);
    });
  }

  /**
   * Inserts, or replaces the invite with this code when it is the same invite (same guild and channel);
   * ConflictError when the code belongs to an invite of another guild or channel.
   */
  saveInvite(invite: InviteRecord): Promise<void> {
    return this.db.call(() => {
      const { changes } = this.#saveInvite.run(invite.code, invite.guild_id, invite.channel_id, JSON.stringify(invite));
      if (changes === 0) throw new ConflictError('Invite code already taken');
    });
  }

  deleteInvite(code: string): Promise<void> {
    return this.db.call(() => void this.#deleteInvite.run(code));
  }
}
