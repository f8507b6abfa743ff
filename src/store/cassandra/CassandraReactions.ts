import type { ReactionRecord } from '../../../actors/runtime/ports/records.js';
import { keyOf, writableKey } from './cassandraIds.js';
import { bigintColumn, documents, type CassandraSession, type Cql } from './CassandraSession.js';

/** Statements per batch when one emoji's reactions are removed (keeps batches far below the size cap). */
const BATCH_CHUNK = 200;

/**
 * Reactions of messages. Both tables are partitioned by (channel_id, message_id), so a message's
 * reactions are one partition in each, and a batch touching both is a single-partition mutation
 * (atomic, no batchlog). `reactions` is clustered by `seq`, the order of first addition; `reaction_keys`
 * maps (emoji, user) → seq, which makes adding idempotent (an existing reaction keeps its place) and
 * removal by user or by emoji a key lookup. seq = max + 1 is safe because one Channel actor writes.
 */
export class CassandraReactions {
  constructor(private readonly session: CassandraSession) {}

  /** Adds the reaction; adding one that exists keeps it, in its place. */
  async add(reaction: ReactionRecord): Promise<void> {
    const { channel_id, emoji, user_id } = reaction;
    const messageKey = writableKey(reaction.message_id);
    const existing = await this.session.first(
      'SELECT seq FROM reaction_keys WHERE channel_id = ? AND message_id = ? AND emoji = ? AND user_id = ?',
      [channel_id, messageKey, emoji, user_id],
    );
    const existingSeq = bigintColumn(existing, 'seq');
    if (existingSeq !== undefined && (await this.#hasRow(channel_id, messageKey, existingSeq))) return;
    const last = await this.session.first(
      'SELECT seq FROM reactions WHERE channel_id = ? AND message_id = ? ORDER BY seq DESC LIMIT 1',
      [channel_id, messageKey],
    );
    const seq = (bigintColumn(last, 'seq') ?? 0n) + 1n;
    await this.session.batch([
      {
        query: 'INSERT INTO reactions (channel_id, message_id, seq, emoji, user_id, data) VALUES (?, ?, ?, ?, ?, ?)',
        params: [channel_id, messageKey, seq, emoji, user_id, JSON.stringify(reaction)],
      },
      {
        query: 'INSERT INTO reaction_keys (channel_id, message_id, emoji, user_id, seq) VALUES (?, ?, ?, ?, ?)',
        params: [channel_id, messageKey, emoji, user_id, seq],
      },
    ]);
  }

  /** Removes one user's reaction, every reaction of an emoji (userId undefined), or all (emoji undefined). */
  async remove(channelId: string, messageId: string, emoji?: string, userId?: string): Promise<void> {
    const messageKey = keyOf(messageId);
    if (messageKey === undefined) return;
    if (emoji === undefined) {
      await this.session.batch(this.removeAllStatements(channelId, messageKey));
      return;
    }
    const where = 'channel_id = ? AND message_id = ? AND emoji = ?';
    const keyRows =
      userId === undefined
        ? await this.session.rows(`SELECT seq FROM reaction_keys WHERE ${where}`, [channelId, messageKey, emoji])
        : await this.session.rows(`SELECT seq FROM reaction_keys WHERE ${where} AND user_id = ?`, [
            channelId,
            messageKey,
            emoji,
            userId,
          ]);
    const statements: Cql[] = keyRows.map((row) => ({
      query: 'DELETE FROM reactions WHERE channel_id = ? AND message_id = ? AND seq = ?',
      params: [channelId, messageKey, bigintColumn(row, 'seq') ?? 0n],
    }));
    statements.push(
      userId === undefined
        ? { query: `DELETE FROM reaction_keys WHERE ${where}`, params: [channelId, messageKey, emoji] }
        : {
            query: `DELETE FROM reaction_keys WHERE ${where} AND user_id = ?`,
            params: [channelId, messageKey, emoji, userId],
          },
    );
    // Chunks apply in order, key rows last: a failure part-way can leave a key whose row is gone, which
    // `add` treats as absent, but never a listed reaction that has no key.
    for (let from = 0; from < statements.length; from += BATCH_CHUNK) {
      await this.session.batch(statements.slice(from, from + BATCH_CHUNK));
    }
  }

  /** The message's reactions in the order they were added. */
  async list(channelId: string, messageId: string): Promise<ReactionRecord[]> {
    const messageKey = keyOf(messageId);
    if (messageKey === undefined) return [];
    const rows = await this.session.rows('SELECT data FROM reactions WHERE channel_id = ? AND message_id = ?', [
      channelId,
      messageKey,
    ]);
    return documents<ReactionRecord>(rows);
  }

  async #hasRow(channelId: string, messageKey: bigint, seq: bigint): Promise<boolean> {
    const row = await this.session.first(
      'SELECT seq FROM reactions WHERE channel_id = ? AND message_id = ? AND seq = ?',
      [channelId, messageKey, seq],
    );
    return row !== undefined;
  }

  /** Whole-partition deletes of every reaction of a message (for removeAll and message deletion). */
  removeAllStatements(channelId: string, messageKey: bigint): Cql[] {
    return [
      { query: 'DELETE FROM reactions WHERE channel_id = ? AND message_id = ?', params: [channelId, messageKey] },
      { query: 'DELETE FROM reaction_keys WHERE channel_id = ? AND message_id = ?', params: [channelId, messageKey] },
    ];
  }
}
