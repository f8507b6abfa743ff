import type { GuildRecord, InviteRecord, MemberRecord, RoleRecord } from '../../../actors/runtime/ports/records.js';
import type { ChannelStore, GuildStore } from '../../../actors/runtime/ports/stores.js';
import { idText, keyOf, writableKey } from './cassandraIds.js';
import type { CassandraInstanceCounter } from './CassandraInstanceCounter.js';
import { CassandraInvites } from './CassandraInvites.js';
import { documentOf, documents, type CassandraSession } from './CassandraSession.js';

/** Rows deleted at once when a guild goes (bounded so a big guild does not flood the coordinator). */
const DELETE_CONCURRENCY = 16;

/**
 * GuildStore on Cassandra. `guilds` by id; roles and members each one partition per guild (so the Guild
 * actor loads them with one query each), with `guilds_by_user` written beside every member row in a
 * logged batch; invites in CassandraInvites. Deleting a guild removes its channels through the
 * ChannelStore (which owns their index rows).
 */
export class CassandraGuildStore implements GuildStore {
  readonly #invites: CassandraInvites;

  constructor(
    private readonly session: CassandraSession,
    private readonly channels: ChannelStore,
    private readonly counter: CassandraInstanceCounter,
  ) {
    this.#invites = new CassandraInvites(session);
  }

  async getGuild(id: string): Promise<GuildRecord | undefined> {
    return documentOf<GuildRecord>(await this.session.first('SELECT data FROM guilds WHERE id = ?', [id]));
  }

  /** Upsert; a guild saved for the first time is counted (the Guild actor is its only writer, so no race). */
  async saveGuild(guild: GuildRecord): Promise<void> {
    const isNew = !(await this.#exists('SELECT id FROM guilds WHERE id = ?', [guild.id]));
    await this.session.write('INSERT INTO guilds (id, data) VALUES (?, ?)', [guild.id, JSON.stringify(guild)]);
    if (isNew) this.counter.add('guild', 1);
  }

  /**
   * Deletes the guild's channels, invites, members (and their guilds_by_user rows) and roles, then the
   * guild row last: a delete cut short leaves a guild that still exists and can be deleted again, never
   * a user listed in a guild that is gone. Children go by whole-partition deletes where they can.
   */
  async deleteGuild(id: string): Promise<void> {
    const existed = await this.#exists('SELECT id FROM guilds WHERE id = ?', [id]);
    const channels = await this.channels.listByGuild(id);
    await this.session.forEach(channels, DELETE_CONCURRENCY, (channel) => this.channels.delete(channel.id));
    await this.session.write('DELETE FROM channels_by_guild WHERE guild_id = ?', [id]);

    await this.#invites.deleteAllOfGuild(id);

    const guildKey = keyOf(id);
    const members = await this.session.rows('SELECT user_id FROM members WHERE guild_id = ?', [id]);
    if (guildKey !== undefined) {
      await this.session.forEach(members, DELETE_CONCURRENCY, (row) =>
        this.session.write('DELETE FROM guilds_by_user WHERE user_id = ? AND guild_id = ?', [
          idText(row.get('user_id')),
          guildKey,
        ]),
      );
    }
    await this.session.write('DELETE FROM members WHERE guild_id = ?', [id]);
    this.counter.add('members', -members.length);
    await this.session.write('DELETE FROM roles WHERE guild_id = ?', [id]);
    await this.session.write('DELETE FROM guilds WHERE id = ?', [id]);
    if (existed) this.counter.add('guild', -1);
  }

  /** The guild's roles in id order. */
  async listRoles(guildId: string): Promise<RoleRecord[]> {
    return documents<RoleRecord>(await this.session.rows('SELECT data FROM roles WHERE guild_id = ?', [guildId]));
  }

  async saveRole(role: RoleRecord): Promise<void> {
    await this.session.write('INSERT INTO roles (guild_id, role_id, data) VALUES (?, ?, ?)', [
      role.guild_id,
      writableKey(role.id),
      JSON.stringify(role),
    ]);
  }

  async deleteRole(guildId: string, roleId: string): Promise<void> {
    const key = keyOf(roleId);
    if (key === undefined) return;
    await this.session.write('DELETE FROM roles WHERE guild_id = ? AND role_id = ?', [guildId, key]);
  }

  /** The guild's members in user id order (one partition, paged). */
  async listMembers(guildId: string): Promise<MemberRecord[]> {
    return documents<MemberRecord>(await this.session.rows('SELECT data FROM members WHERE guild_id = ?', [guildId]));
  }

  /** Upsert; a membership saved for the first time is counted (its Guild actor is the only writer). */
  async saveMember(member: MemberRecord): Promise<void> {
    const isNew = !(await this.#memberExists(member.guild_id, member.user_id));
    await this.session.batch([
      {
        query: 'INSERT INTO members (guild_id, user_id, data) VALUES (?, ?, ?)',
        params: [member.guild_id, writableKey(member.user_id), JSON.stringify(member)],
      },
      {
        query: 'INSERT INTO guilds_by_user (user_id, guild_id) VALUES (?, ?)',
        params: [member.user_id, writableKey(member.guild_id)],
      },
    ]);
    if (isNew) this.counter.add('members', 1);
  }

  async deleteMember(guildId: string, userId: string): Promise<void> {
    const [guildKey, userKey] = [keyOf(guildId), keyOf(userId)];
    if (guildKey === undefined || userKey === undefined) return;
    const existed = await this.#memberExists(guildId, userId);
    await this.session.batch([
      { query: 'DELETE FROM members WHERE guild_id = ? AND user_id = ?', params: [guildId, userKey] },
      { query: 'DELETE FROM guilds_by_user WHERE user_id = ? AND guild_id = ?', params: [userId, guildKey] },
    ]);
    if (existed) this.counter.add('members', -1);
  }

  /** The guilds the user is a member of, in id order. */
  async guildIdsOfUser(userId: string): Promise<string[]> {
    const rows = await this.session.rows('SELECT guild_id FROM guilds_by_user WHERE user_id = ?', [userId]);
    return rows.map((row) => idText(row.get('guild_id')));
  }

  async #exists(query: string, params: readonly unknown[]): Promise<boolean> {
    return (await this.session.first(query, params)) !== undefined;
  }

  #memberExists(guildId: string, userId: string): Promise<boolean> {
    const userKey = keyOf(userId);
    if (userKey === undefined) return Promise.resolve(false);
    return this.#exists('SELECT user_id FROM members WHERE guild_id = ? AND user_id = ?', [guildId, userKey]);
  }

  listInvites(guildId: string): Promise<InviteRecord[]> {
    return this.#invites.listByGuild(guildId);
  }

  getInvite(code: string): Promise<InviteRecord | undefined> {
    return this.#invites.get(code);
  }

  saveInvite(invite: InviteRecord): Promise<void> {
    return this.#invites.save(invite);
  }

  deleteInvite(code: string): Promise<void> {
    return this.#invites.delete(code);
  }
}
