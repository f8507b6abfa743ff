import type { ChannelRecord } from '../../../actors/runtime/ports/records.js';
import type { ChannelOwnerFields, ChannelStore } from '../../../actors/runtime/ports/stores.js';
import { newerSnowflake } from '../../domain/snowflake.js';
import { fromJson, type SqliteDatabase } from './SqliteDatabase.js';

/** Discord's DM channel type (a group DM is 3). */
const DM_CHANNEL_TYPE = 1;

/** ChannelStore on SQLite; DM and group-DM recipients get index rows for listPrivate and findDm. */
export class SqliteChannelStore implements ChannelStore {
  readonly #get;
  readonly #save;
  readonly #rewrite;
  readonly #delete;
  readonly #byGuild;
  readonly #private;
  readonly #dm;

  constructor(private readonly db: SqliteDatabase) {
    const c = db.connection;
    this.#get = c.prepare<[string], string>('SELECT data FROM channels WHERE id = ?').pluck();
    const upsert = c.prepare<[string, string | null, number, string]>(
      `INSERT INTO channels (id, guild_id, type, data) VALUES (?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET guild_id = excluded.guild_id, type = excluded.type, data = excluded.data`,
    );
    const clearRecipients = c.prepare<[string]>('DELETE FROM channel_recipients WHERE channel_id = ?');
    const addRecipient = c.prepare<[string, string]>(
      'INSERT INTO channel_recipients (user_id, channel_id) VALUES (?, ?) ON CONFLICT DO NOTHING',
    );
    const deleteChannel = c.prepare<[string]>('DELETE FROM channels WHERE id = ?');
    this.#rewrite = c.prepare<[string, string]>('UPDATE channels SET data = ? WHERE id = ?');

    this.#save = db.transaction((channel: ChannelRecord) => {
      upsert.run(channel.id, channel.guild_id, channel.type, JSON.stringify(channel));
      clearRecipients.run(channel.id);
      // Only private channels are listed by recipient; a guild channel's recipient_ids is not an index.
      if (channel.guild_id === null) for (const userId of channel.recipient_ids) addRecipient.run(userId, channel.id);
    });
    this.#delete = db.transaction((id: string) => {
      clearRecipients.run(id);
      deleteChannel.run(id);
    });
    this.#byGuild = c
      .prepare<[string], string>('SELECT data FROM channels WHERE guild_id = ? ORDER BY length(id), id')
      .pluck();
    this.#private = c
      .prepare<[string], string>(
        `SELECT c.data FROM channel_recipients r JOIN channels c ON c.id = r.channel_id
         WHERE r.user_id = ? AND c.guild_id IS NULL ORDER BY length(c.id), c.id`,
      )
      .pluck();
    this.#dm = c
      .prepare<[string, string, number], string>(
        `SELECT c.data FROM channel_recipients a
         JOIN channel_recipients b ON b.channel_id = a.channel_id
         JOIN channels c ON c.id = a.channel_id
         WHERE a.user_id = ? AND b.user_id = ? AND c.type = ? AND c.guild_id IS NULL
         ORDER BY length(c.id), c.id LIMIT 1`,
      )
      .pluck();
  }

  get(id: string): Promise<ChannelRecord | undefined> {
    return this.db.call(() => parse(this.#get.get(id)));
  }

  /** Inserts or replaces the channel and its recipient index rows in one transaction. */
  save(channel: ChannelRecord): Promise<void> {
    return this.db.call(() => {
      this.#save(channel);
    });
  }

  /**
   * Rewrites the stored record's data with them (in process, a read costs little); a deleted channel stays
   * deleted. Neither field is indexed, so the row's other columns and its recipient rows stay as they are.
   */
  saveOwnerFields(channel: ChannelRecord, fields: ChannelOwnerFields): Promise<void> {
    return this.db.call(() => {
      const stored = parse(this.#get.get(channel.id));
      if (stored === undefined) return;
      const last_message_id = newerSnowflake(stored.last_message_id, fields.last_message_id);
      const owned = { ...stored, last_message_id, last_pin_timestamp: fields.last_pin_timestamp };
      this.#rewrite.run(JSON.stringify(owned), channel.id);
    });
  }

  /** Deletes the channel and its recipient index rows (its messages stay with the MessageStore). */
  delete(id: string): Promise<void> {
    return this.db.call(() => {
      this.#delete(id);
    });
  }

  listByGuild(guildId: string): Promise<ChannelRecord[]> {
    return this.db.call(() => this.#byGuild.all(guildId).map((data) => fromJson<ChannelRecord>(data)));
  }

  listPrivate(userId: string): Promise<ChannelRecord[]> {
    return this.db.call(() => this.#private.all(userId).map((data) => fromJson<ChannelRecord>(data)));
  }

  findDm(userA: string, userB: string): Promise<ChannelRecord | undefined> {
    return this.db.call(() => parse(this.#dm.get(userA, userB, DM_CHANNEL_TYPE)));
  }
}

function parse(data: string | undefined): ChannelRecord | undefined {
  return data === undefined ? undefined : fromJson<ChannelRecord>(data);
}
