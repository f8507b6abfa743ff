import type { MessageRecord, ReactionRecord } from '../../../actors/runtime/ports/records.js';
import type { MessagePage, MessageStore } from '../../../actors/runtime/ports/stores.js';
import { bucketOf, keyOf, writableKey } from './cassandraIds.js';
import type { CassandraInstanceCounter } from './CassandraInstanceCounter.js';
import { CassandraReactions } from './CassandraReactions.js';
import {
  bigintColumn,
  documentOf,
  documents,
  textColumn,
  type CassandraSession,
  type Cql,
} from './CassandraSession.js';
import { MessageBuckets, listPage } from './messagePages.js';

/** Messages deleted at once by a bulk delete. */
const DELETE_CONCURRENCY = 8;

const MESSAGE_KEY = 'channel_id = ? AND bucket = ? AND message_id = ?';

/** The primary key values of a message row. */
function rowKey(channelId: string, messageKey: bigint): [string, number, bigint] {
  return [channelId, bucketOf(messageKey), messageKey];
}

/**
 * MessageStore on Cassandra, Discord's layout: `messages` partitioned by (channel_id, 10-day bucket of
 * the snowflake) and clustered by message_id DESC, so a page is a slice of one or a few partitions read
 * in order (see messagePages.ts). A pinned message carries its `pin_seq` and has a copy in `pins`
 * (channel_id, pin_seq DESC), so the pins list is one partition read, newest pin first; an edit keeps the
 * pin's place, unpinning drops it, pinning again takes a new (highest) place. Reactions live in
 * CassandraReactions. Message ids come from per-node snowflake generators, so inserts are plain
 * upserts: no lightweight transaction on the hottest write path.
 */
export class CassandraMessageStore implements MessageStore {
  readonly #buckets: MessageBuckets;
  readonly #reactions: CassandraReactions;

  constructor(
    private readonly session: CassandraSession,
    private readonly counter: CassandraInstanceCounter,
  ) {
    this.#buckets = new MessageBuckets(session);
    this.#reactions = new CassandraReactions(session);
  }

  async insert(message: MessageRecord): Promise<void> {
    const key = writableKey(message.id);
    await this.#buckets.note(message.channel_id, bucketOf(key));
    const data = JSON.stringify(message);
    const values = rowKey(message.channel_id, key);
    if (!message.pinned) {
      await this.session.write('INSERT INTO messages (channel_id, bucket, message_id, data) VALUES (?, ?, ?, ?)', [
        ...values,
        data,
      ]);
      this.counter.add('message', 1);
      return;
    }
    const seq = await this.#nextPinSeq(message.channel_id);
    await this.session.batch([
      {
        query: 'INSERT INTO messages (channel_id, bucket, message_id, pin_seq, data) VALUES (?, ?, ?, ?, ?)',
        params: [...values, seq, data],
      },
      this.#pinRow(message, key, seq, data),
    ]);
    this.counter.add('message', 1);
  }

  /** Replaces the record (a message that does not exist is left absent), keeping the pins in step. */
  async update(message: MessageRecord): Promise<void> {
    const key = writableKey(message.id);
    const values = rowKey(message.channel_id, key);
    const stored = await this.session.first(`SELECT pin_seq, data FROM messages WHERE ${MESSAGE_KEY}`, values);
    if (textColumn(stored, 'data') === undefined) return;
    const storedSeq = bigintColumn(stored, 'pin_seq');
    const data = JSON.stringify(message);
    const statements: Cql[] = [];
    if (message.pinned) {
      const seq = storedSeq ?? (await this.#nextPinSeq(message.channel_id));
      statements.push(
        {
          query: 'INSERT INTO messages (channel_id, bucket, message_id, pin_seq, data) VALUES (?, ?, ?, ?, ?)',
          params: [...values, seq, data],
        },
        this.#pinRow(message, key, seq, data),
      );
    } else {
      // Writing null clears a pin_seq the row had; without one, leave the column alone (no tombstone).
      statements.push(
        storedSeq === undefined
          ? {
              query: 'INSERT INTO messages (channel_id, bucket, message_id, data) VALUES (?, ?, ?, ?)',
              params: [...values, data],
            }
          : {
              query: 'INSERT INTO messages (channel_id, bucket, message_id, pin_seq, data) VALUES (?, ?, ?, null, ?)',
              params: [...values, data],
            },
      );
      if (storedSeq !== undefined) statements.push(this.#unpinRow(message.channel_id, storedSeq));
    }
    await this.session.batch(statements);
  }

  async get(channelId: string, messageId: string): Promise<MessageRecord | undefined> {
    const key = keyOf(messageId);
    if (key === undefined) return undefined;
    const row = await this.session.first(`SELECT data FROM messages WHERE ${MESSAGE_KEY}`, rowKey(channelId, key));
    return documentOf<MessageRecord>(row);
  }

  /** Deletes the messages with their reactions and pins; unknown ids are skipped. */
  async delete(channelId: string, messageIds: readonly string[]): Promise<void> {
    const keys = messageIds.map(keyOf).filter((key): key is bigint => key !== undefined);
    await this.session.forEach(keys, DELETE_CONCURRENCY, async (key) => {
      const values = rowKey(channelId, key);
      const stored = await this.session.first(`SELECT pin_seq FROM messages WHERE ${MESSAGE_KEY}`, values);
      const seq = bigintColumn(stored, 'pin_seq');
      await this.session.batch([
        { query: `DELETE FROM messages WHERE ${MESSAGE_KEY}`, params: values },
        ...this.#reactions.removeAllStatements(channelId, key),
        ...(seq === undefined ? [] : [this.#unpinRow(channelId, seq)]),
      ]);
      if (stored !== undefined) this.counter.add('message', -1);
    });
  }

  list(channelId: string, page: MessagePage): Promise<MessageRecord[]> {
    return listPage(this.session, this.#buckets, channelId, page);
  }

  /** Pinned messages, newest pin first. */
  async listPinned(channelId: string): Promise<MessageRecord[]> {
    return documents<MessageRecord>(await this.session.rows('SELECT data FROM pins WHERE channel_id = ?', [channelId]));
  }

  addReaction(reaction: ReactionRecord): Promise<void> {
    return this.#reactions.add(reaction);
  }

  removeReactions(channelId: string, messageId: string, emoji?: string, userId?: string): Promise<void> {
    return this.#reactions.remove(channelId, messageId, emoji, userId);
  }

  listReactions(channelId: string, messageId: string): Promise<ReactionRecord[]> {
    return this.#reactions.list(channelId, messageId);
  }

  /** The next pin place: above every current pin (the partition is clustered pin_seq DESC). */
  async #nextPinSeq(channelId: string): Promise<bigint> {
    const newest = await this.session.first('SELECT pin_seq FROM pins WHERE channel_id = ? LIMIT 1', [channelId]);
    return (bigintColumn(newest, 'pin_seq') ?? 0n) + 1n;
  }

  #pinRow(message: MessageRecord, key: bigint, seq: bigint, data: string): Cql {
    return {
      query: 'INSERT INTO pins (channel_id, pin_seq, message_id, data) VALUES (?, ?, ?, ?)',
      params: [message.channel_id, seq, key, data],
    };
  }

  #unpinRow(channelId: string, seq: bigint): Cql {
    return { query: 'DELETE FROM pins WHERE channel_id = ? AND pin_seq = ?', params: [channelId, seq] };
  }
}
