import type { MessageRecord } from '../../../actors/runtime/ports/records.js';
import type { MessagePage } from '../../../actors/runtime/ports/stores.js';
import { MAX_CQL_BIGINT, bucketOf, cursorOf } from './cassandraIds.js';
import { documents, type CassandraSession } from './CassandraSession.js';

/** Channels whose newest noted bucket this process remembers (so it writes each bucket row once). */
const NOTED_BUCKETS_CAP = 10_000;

/**
 * The `message_buckets` index: which 10-day buckets of a channel hold messages. A page walks only these,
 * so a channel that was quiet for years costs one small partition read, not one query per empty window.
 */
export class MessageBuckets {
  readonly #noted = new Map<string, number>();

  constructor(private readonly session: CassandraSession) {}

  /**
   * Records that `bucket` of the channel holds a message; called (and awaited) before the message is
   * written, so a listed message's bucket is always walked. Idempotent; skipped when this process
   * already wrote that row (bucket rows are never deleted, so the memo cannot go stale).
   */
  async note(channelId: string, bucket: number): Promise<void> {
    if (this.#noted.get(channelId) === bucket) return;
    await this.session.write('INSERT INTO message_buckets (channel_id, bucket) VALUES (?, ?)', [channelId, bucket]);
    if (this.#noted.size >= NOTED_BUCKETS_CAP) this.#noted.clear();
    this.#noted.set(channelId, bucket);
  }

  /** The channel's buckets, newest first. */
  async of(channelId: string): Promise<number[]> {
    const rows = await this.session.rows('SELECT bucket FROM message_buckets WHERE channel_id = ?', [channelId]);
    return rows.map((row) => Number(row.get('bucket')));
  }
}

const SELECT = 'SELECT data FROM messages WHERE channel_id = ? AND bucket = ?';

/** One bucket's slice of a page: ids in (lower, upper), newest or oldest first, at most `limit`. */
function sliceQuery(lower: bigint | undefined, upper: bigint | undefined, ascending: boolean) {
  const params: bigint[] = [];
  let query = SELECT;
  if (lower !== undefined) {
    query += ' AND message_id > ?';
    params.push(lower);
  }
  if (upper !== undefined) {
    query += ' AND message_id < ?';
    params.push(upper);
  }
  query += `${ascending ? ' ORDER BY message_id ASC' : ''} LIMIT ?`;
  return { query, params };
}

/**
 * A page of a channel, newest first (see MessageStore.list). `before` alone: buckets newest → oldest
 * from before's bucket, each read newest first below `before`, until `limit` rows. `after` (with or
 * without `before`): buckets oldest → newest from after's bucket, each read oldest first, the `limit`
 * ids closest to `after`, then reversed. Neither: the newest `limit`. Cursors beyond the bigint range
 * are clamped (no upper bound / nothing above).
 */
export async function listPage(
  session: CassandraSession,
  buckets: MessageBuckets,
  channelId: string,
  page: MessagePage,
): Promise<MessageRecord[]> {
  const limit = Math.max(0, Math.floor(page.limit));
  const lower = page.after === undefined ? undefined : cursorOf(page.after);
  const rawUpper = page.before === undefined ? undefined : cursorOf(page.before);
  const upper = rawUpper !== undefined && rawUpper <= MAX_CQL_BIGINT ? rawUpper : undefined;
  if (limit === 0 || (lower !== undefined && lower >= MAX_CQL_BIGINT) || upper === 0n) return [];
  if (lower !== undefined && upper !== undefined && upper <= lower + 1n) return [];

  const newestFirst = await buckets.of(channelId);
  const highest = upper === undefined ? Infinity : bucketOf(upper);
  const lowest = lower === undefined ? -Infinity : bucketOf(lower);
  const inRange = newestFirst.filter((bucket) => bucket <= highest && bucket >= lowest);
  const ascending = lower !== undefined;
  const walk = ascending ? inRange.reverse() : inRange;
  const { query, params } = sliceQuery(lower, upper, ascending);

  const found: MessageRecord[] = [];
  for (const bucket of walk) {
    const rows = await session.rows(query, [channelId, bucket, ...params, limit - found.length]);
    found.push(...documents<MessageRecord>(rows));
    if (found.length >= limit) break;
  }
  return ascending ? found.reverse() : found;
}
