import type {
  ApplicationCommandRecord,
  ApplicationCommandStore,
} from '../../../actors/runtime/ports/applicationCommandStore.js';
import { writableKey } from './cassandraIds.js';
import { documents, type CassandraSession, type Cql } from './CassandraSession.js';

const INSERT =
  'INSERT INTO application_commands (application_id, scope, command_id, data) VALUES (?, ?, ?, ?) USING TIMESTAMP ?';

/**
 * ApplicationCommandStore on Cassandra: one partition per (application, scope), clustered by command id.
 * Every write carries an explicit, per-store monotonic timestamp: a bulk overwrite is a partition delete
 * at t - 1 plus inserts at t in one batch (a delete and an insert with one timestamp would let the
 * tombstone win), and a later single write must sort after it.
 */
export class CassandraApplicationCommandStore implements ApplicationCommandStore {
  #lastMicros = 0n;

  constructor(private readonly session: CassandraSession) {}

  /** Microseconds since the epoch, strictly increasing within this store. */
  #timestamp(): bigint {
    const now = BigInt(Date.now()) * 1000n;
    this.#lastMicros = now > this.#lastMicros ? now : this.#lastMicros + 2n;
    return this.#lastMicros;
  }

  async list(applicationId: string, scope: string): Promise<ApplicationCommandRecord[]> {
    return documents<ApplicationCommandRecord>(
      await this.session.rows('SELECT data FROM application_commands WHERE application_id = ? AND scope = ?', [
        applicationId,
        scope,
      ]),
    );
  }

  async save(command: ApplicationCommandRecord): Promise<void> {
    await this.session.write(INSERT, insertParams(command, this.#timestamp()));
  }

  /** The scope's partition deleted and refilled in one single-partition batch (atomic in Cassandra). */
  async saveAll(applicationId: string, scope: string, commands: readonly ApplicationCommandRecord[]): Promise<void> {
    const at = this.#timestamp();
    this.#lastMicros += 1n;
    const statements: Cql[] = [
      {
        query: 'DELETE FROM application_commands USING TIMESTAMP ? WHERE application_id = ? AND scope = ?',
        params: [at, applicationId, scope],
      },
      ...commands.map((command) => ({ query: INSERT, params: insertParams(command, at + 1n) })),
    ];
    await this.session.batch(statements);
  }

  async delete(applicationId: string, scope: string, commandId: string): Promise<void> {
    await this.session.write(
      'DELETE FROM application_commands USING TIMESTAMP ? WHERE application_id = ? AND scope = ? AND command_id = ?',
      [this.#timestamp(), applicationId, scope, writableKey(commandId)],
    );
  }
}

function insertParams(command: ApplicationCommandRecord, at: bigint): unknown[] {
  return [command.application_id, command.scope, writableKey(command.id), JSON.stringify(command), at];
}
