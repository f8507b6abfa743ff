import type { ReadStateRecord, ReadStateStore } from '../../../actors/runtime/ports/readStateStore.js';
import type { SqliteDatabase } from './SqliteDatabase.js';

interface ReadStateRow {
  readonly user_id: string;
  readonly channel_id: bigint;
  readonly last_message_id: string;
  readonly mention_count: number;
  readonly last_pin_timestamp: string | null;
}

/** The statements, prepared on first use: a database opened at an older schema (tests of migrations) lacks the table. */
function prepare(db: SqliteDatabase) {
  const c = db.connection;
  // The id goes out as text: a snowflake past 2^53 would lose digits as a JS number.
  const list = c.prepare<[string], ReadStateRecord>(
    'SELECT user_id, CAST(channel_id AS TEXT) AS channel_id, last_message_id, mention_count, last_pin_timestamp ' +
      'FROM read_states WHERE user_id = ? ORDER BY channel_id',
  );
  const upsert = c.prepare<ReadStateRow>(
    'INSERT INTO read_states (user_id, channel_id, last_message_id, mention_count, last_pin_timestamp) ' +
      'VALUES (@user_id, @channel_id, @last_message_id, @mention_count, @last_pin_timestamp) ' +
      'ON CONFLICT (user_id, channel_id) DO UPDATE SET last_message_id = excluded.last_message_id, ' +
      'mention_count = excluded.mention_count, last_pin_timestamp = excluded.last_pin_timestamp',
  );
  const saveAll = db.transaction((states: readonly ReadStateRecord[]) => {
    for (const state of states) upsert.run({ ...state, channel_id: BigInt(state.channel_id) });
  });
  return { list, saveAll };
}

/** ReadStateStore on SQLite: one row per (user, channel), columns rather than JSON (every field is read). */
export class SqliteReadStateStore implements ReadStateStore {
  #statements: ReturnType<typeof prepare> | undefined;

  constructor(private readonly db: SqliteDatabase) {}

  list(userId: string): Promise<ReadStateRecord[]> {
    return this.db.call(() => this.#prepared().list.all(userId));
  }

  save(states: readonly ReadStateRecord[]): Promise<void> {
    return this.db.call(() => {
      this.#prepared().saveAll(states);
    });
  }

  #prepared(): ReturnType<typeof prepare> {
    this.#statements ??= prepare(this.db);
    return this.#statements;
  }
}
