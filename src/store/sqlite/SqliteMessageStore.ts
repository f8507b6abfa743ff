import type { MessageRecord, ReactionRecord } from '../../../actors/runtime/ports/records.js';
import type { MessagePage, MessageStore } from '../../../actors/runtime/ports/stores.js';
import { InternalError } from '../../domain/errors.js';
import { GroupCommit } from './groupCommit.js';
import { toStoreError } from './sqliteErrors.js';
import { fromJson, type SqliteDatabase } from './SqliteDatabase.js';

/** The migration after which this store, not a trigger, counts the messages it inserts. */
const COUNTED_PER_COMMIT = 10;

/** The largest id an INTEGER column holds; generated snowflakes stay below it until 2084. */
const MAX_SQL_ID = (1n << 63n) - 1n;

/** A snowflake as its INTEGER key, or undefined when it is not a decimal that fits one. */
function sqlId(id: string): bigint | undefined {
  if (!/^\d{1,20}$/.test(id)) return undefined;
  const value = BigInt(id);
  return value <= MAX_SQL_ID ? value : undefined;
}

/** The INTEGER key of an id being written; an id that has none is a caller bug. */
function writableId(id: string): bigint {
  const value = sqlId(id);
  if (value === undefined) throw new InternalError({ cause: new RangeError(`Not a storable snowflake: ${id}`) });
  return value;
}

interface MessageRow {
  readonly channel_id: string;
  readonly id: bigint;
  readonly pinned: number;
  readonly data: string;
}

function toRow(message: MessageRecord): MessageRow {
  return {
    channel_id: message.channel_id,
    id: writableId(message.id),
    pinned: message.pinned ? 1 : 0,
    data: JSON.stringify(message),
  };
}

/**
 * How the instance count of messages goes up once a group commit, in its transaction: migration 10 dropped the
 * trigger that did it once a row. A file opened at an older version (tests of migrations) keeps its trigger.
 */
function countsPerCommit(db: SqliteDatabase): ((count: number) => void) | undefined {
  if (!db.appliedMigrations().some((migration) => migration.version === COUNTED_PER_COMMIT)) return undefined;
  const counted = db.connection.prepare<[number]>(
    "UPDATE instance_counts SET count = count + ? WHERE name = 'message'",
  );
  return (count) => void counted.run(count);
}

/** The next pin position in a channel: pins list by it, newest pin first. */
const NEXT_PIN = `(SELECT coalesce(max(pin_seq), 0) + 1 FROM messages
  WHERE channel_id = @channel_id AND pin_seq IS NOT NULL)`;

/**
 * MessageStore on SQLite. Messages are keyed (channel_id, id INTEGER), so pages are index range scans
 * in numeric snowflake order; pins keep their own sequence; reactions list in the order they were added.
 */
export class SqliteMessageStore implements MessageStore {
  readonly #inserts;
  readonly #update;
  readonly #get;
  readonly #delete;
  readonly #newest;
  readonly #before;
  readonly #after;
  readonly #between;
  readonly #pinned;
  readonly #addReaction;
  readonly #removeOne;
  readonly #removeEmoji;
  readonly #removeAll;
  readonly #reactions;
  readonly #reactionsBetween;

  constructor(private readonly db: SqliteDatabase) {
    const c = db.connection;
    const insert = c.prepare<MessageRow>(
      `INSERT INTO messages (channel_id, id, pin_seq, data)
       VALUES (@channel_id, @id, CASE WHEN @pinned THEN ${NEXT_PIN} END, @data)`,
    );
    // Messages posted in one event-loop turn (any channels) commit together: see GroupCommit.
    this.#inserts = new GroupCommit(
      db,
      (row: MessageRow) => void insert.run(row),
      () => 'Message already exists',
      countsPerCommit(db),
    );
    // An edit keeps the pin position; pinning takes the next one; unpinning clears it.
    this.#update = c.prepare<MessageRow>(
      `UPDATE messages SET data = @data, pin_seq = CASE
         WHEN NOT @pinned THEN NULL WHEN pin_seq IS NOT NULL THEN pin_seq ELSE ${NEXT_PIN} END
       WHERE channel_id = @channel_id AND id = @id`,
    );
    this.#get = c
      .prepare<[string, bigint], string>('SELECT data FROM messages WHERE channel_id = ? AND id = ?')
      .pluck();
    const deleteMessage = c.prepare<[string, bigint]>('DELETE FROM messages WHERE channel_id = ? AND id = ?');
    const deleteReactions = c.prepare<[string, bigint]>(
      'DELETE FROM reactions WHERE channel_id = ? AND message_id = ?',
    );
    this.#delete = db.transaction((channelId: string, ids: readonly bigint[]) => {
      for (const id of ids) {
        deleteReactions.run(channelId, id);
        deleteMessage.run(channelId, id);
      }
    });

    const page = (where: string, order: 'ASC' | 'DESC') =>
      c.prepare<[string, ...bigint[], number], string>(
        `SELECT data FROM messages WHERE channel_id = ? ${where} ORDER BY id ${order} LIMIT ?`,
      );
    this.#newest = page('', 'DESC').pluck();
    this.#before = page('AND id < ?', 'DESC').pluck();
    this.#after = page('AND id > ?', 'ASC').pluck();
    this.#between = page('AND id > ? AND id < ?', 'ASC').pluck();
    this.#pinned = c
      .prepare<[string], string>(
        'SELECT data FROM messages WHERE channel_id = ? AND pin_seq IS NOT NULL ORDER BY pin_seq DESC',
      )
      .pluck();

    this.#addReaction = c.prepare<[string, bigint, string, string, string]>(
      `INSERT INTO reactions (channel_id, message_id, emoji, user_id, data) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (channel_id, message_id, emoji, user_id) DO NOTHING`,
    );
    const base = 'DELETE FROM reactions WHERE channel_id = ? AND message_id = ?';
    this.#removeOne = c.prepare<[string, bigint, string, string]>(`${base} AND emoji = ? AND user_id = ?`);
    this.#removeEmoji = c.prepare<[string, bigint, string]>(`${base} AND emoji = ?`);
    this.#removeAll = c.prepare<[string, bigint]>(base);
    this.#reactions = c
      .prepare<[string, bigint], string>(
        'SELECT data FROM reactions WHERE channel_id = ? AND message_id = ? ORDER BY seq',
      )
      .pluck();
    // A page's messages are one id range of the channel: their reactions are one index range scan.
    this.#reactionsBetween = c
      .prepare<[string, bigint, bigint], [string, string]>(
        `SELECT CAST(message_id AS TEXT), data FROM reactions
         WHERE channel_id = ? AND message_id BETWEEN ? AND ? ORDER BY message_id, seq`,
      )
      .raw();
  }

  /** Inserts; ConflictError when the channel already has a message with this id. */
  insert(message: MessageRecord): Promise<void> {
    let row: MessageRow;
    try {
      row = toRow(message);
    } catch (thrown) {
      return Promise.reject(toStoreError(thrown));
    }
    return this.#inserts.add(row);
  }

  /** Replaces the record (a message that does not exist is left absent); pinning changes update the pin order. */
  update(message: MessageRecord): Promise<void> {
    return this.db.call(() => void this.#update.run(toRow(message)));
  }

  get(channelId: string, messageId: string): Promise<MessageRecord | undefined> {
    return this.db.call(() => {
      const id = sqlId(messageId);
      const data = id === undefined ? undefined : this.#get.get(channelId, id);
      return data === undefined ? undefined : fromJson<MessageRecord>(data);
    });
  }

  /** Deletes the messages and their reactions in one transaction; unknown ids are skipped. */
  delete(channelId: string, messageIds: readonly string[]): Promise<void> {
    return this.db.call(() => {
      const ids = messageIds.map(sqlId).filter((id): id is bigint => id !== undefined);
      this.#delete(channelId, ids);
    });
  }

  /**
   * Newest first. `before`: the `limit` newest ids below it. `after`: the `limit` oldest ids above it
   * (bounded by `before` too when both are given). Neither: the newest `limit`.
   */
  list(channelId: string, page: MessagePage): Promise<MessageRecord[]> {
    return this.db.call(() => {
      const limit = Math.max(0, Math.floor(page.limit)); // SQLite reads LIMIT -1 as "no limit"
      const before = page.before === undefined ? undefined : cursor(page.before);
      const after = page.after === undefined ? undefined : cursor(page.after);
      let rows: string[];
      if (after !== undefined) {
        if (after >= MAX_SQL_ID) return [];
        rows = (
          before === undefined || before > MAX_SQL_ID
            ? this.#after.all(channelId, after, limit)
            : this.#between.all(channelId, after, before, limit)
        ).reverse();
      } else if (before !== undefined && before <= MAX_SQL_ID) {
        rows = this.#before.all(channelId, before, limit);
      } else {
        rows = this.#newest.all(channelId, limit);
      }
      return rows.map((data) => fromJson<MessageRecord>(data));
    });
  }

  listPinned(channelId: string): Promise<MessageRecord[]> {
    return this.db.call(() => this.#pinned.all(channelId).map((data) => fromJson<MessageRecord>(data)));
  }

  /** Adds the reaction; adding one that exists keeps it (and its place in the order). */
  addReaction(reaction: ReactionRecord): Promise<void> {
    return this.db.call(() => {
      const { channel_id, message_id, emoji, user_id } = reaction;
      this.#addReaction.run(channel_id, writableId(message_id), emoji, user_id, JSON.stringify(reaction));
    });
  }

  removeReactions(channelId: string, messageId: string, emoji?: string, userId?: string): Promise<void> {
    return this.db.call(() => {
      const id = sqlId(messageId);
      if (id === undefined) return;
      if (emoji === undefined) this.#removeAll.run(channelId, id);
      else if (userId === undefined) this.#removeEmoji.run(channelId, id, emoji);
      else this.#removeOne.run(channelId, id, emoji, userId);
    });
  }

  listPageReactions(channelId: string, messageIds: readonly string[]): Promise<ReactionRecord[][]> {
    return this.db.call(() => {
      const ids = messageIds.map(sqlId).filter((id): id is bigint => id !== undefined);
      if (ids.length === 0) return messageIds.map(() => []);
      let low = ids[0] as bigint;
      let high = low;
      for (const id of ids) {
        if (id < low) low = id;
        if (id > high) high = id;
      }
      const byMessage = new Map<string, ReactionRecord[]>();
      for (const [messageId, data] of this.#reactionsBetween.all(channelId, low, high)) {
        let list = byMessage.get(messageId);
        if (!list) byMessage.set(messageId, (list = []));
        list.push(fromJson<ReactionRecord>(data));
      }
      // Keyed by the id's decimal text as SQLite casts it, which is how records spell their ids.
      return messageIds.map((id) => byMessage.get(id) ?? []);
    });
  }

  listReactions(channelId: string, messageId: string): Promise<ReactionRecord[]> {
    return this.db.call(() => {
      const id = sqlId(messageId);
      return id === undefined ? [] : this.#reactions.all(channelId, id).map((data) => fromJson<ReactionRecord>(data));
    });
  }
}

/** A page cursor as a number: any decimal counts, even one past the INTEGER range (the caller clamps). */
function cursor(id: string): bigint {
  if (!/^\d{1,20}$/.test(id)) throw new InternalError({ cause: new RangeError(`Not a snowflake cursor: ${id}`) });
  return BigInt(id);
}
