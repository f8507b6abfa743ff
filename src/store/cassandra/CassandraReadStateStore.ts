import type { ReadStateRecord, ReadStateStore } from '../../../actors/runtime/ports/readStateStore.js';
import { idText, writableKey } from './cassandraIds.js';
import type { CassandraSession } from './CassandraSession.js';

const INSERT =
  'INSERT INTO read_states (user_id, channel_id, last_message_id, mention_count, last_pin_timestamp) ' +
  'VALUES (?, ?, ?, ?, ?)';

/**
 * ReadStateStore on Cassandra: one partition per user, clustered by channel id. A save of several
 * states is one batch on that partition (applied as one mutation, without the batchlog).
 */
export class CassandraReadStateStore implements ReadStateStore {
  constructor(private readonly session: CassandraSession) {}

  async list(userId: string): Promise<ReadStateRecord[]> {
    const rows = await this.session.rows(
      'SELECT channel_id, last_message_id, mention_count, last_pin_timestamp FROM read_states WHERE user_id = ?',
      [userId],
    );
    return rows.map((row) => ({
      user_id: userId,
      channel_id: idText(row.get('channel_id')),
      last_message_id: String(row.get('last_message_id')),
      mention_count: Number(row.get('mention_count')),
      last_pin_timestamp: (row.get('last_pin_timestamp') as string | null) ?? null,
    }));
  }

  async save(states: readonly ReadStateRecord[]): Promise<void> {
    const statements = states.map((state) => ({
      query: INSERT,
      params: [
        state.user_id,
        writableKey(state.channel_id),
        state.last_message_id,
        state.mention_count,
        state.last_pin_timestamp,
      ],
    }));
    if (statements.length === 1 && statements[0]) await this.session.write(INSERT, statements[0].params);
    else await this.session.batch(statements);
  }
}
