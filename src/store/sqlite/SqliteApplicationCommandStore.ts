import type {
  ApplicationCommandRecord,
  ApplicationCommandStore,
} from '../../../actors/runtime/ports/applicationCommandStore.js';
import { fromJson, type SqliteDatabase } from './SqliteDatabase.js';

interface CommandRow {
  readonly application_id: string;
  readonly scope: string;
  readonly id: bigint;
  readonly data: string;
}

function toRow(command: ApplicationCommandRecord): CommandRow {
  return {
    application_id: command.application_id,
    scope: command.scope,
    id: BigInt(command.id),
    data: JSON.stringify(command),
  };
}

/** ApplicationCommandStore on SQLite: one table keyed by (application, scope, id); ids are INTEGER so they sort. */
export class SqliteApplicationCommandStore implements ApplicationCommandStore {
  readonly #list;
  readonly #upsert;
  readonly #delete;
  readonly #replace;

  constructor(private readonly db: SqliteDatabase) {
    const c = db.connection;
    this.#list = c
      .prepare<[string, string], string>(
        'SELECT data FROM application_commands WHERE application_id = ? AND scope = ? ORDER BY id',
      )
      .pluck();
    const upsert = c.prepare<CommandRow>(
      'INSERT INTO application_commands (application_id, scope, id, data) VALUES (@application_id, @scope, @id, @data) ' +
        'ON CONFLICT (application_id, scope, id) DO UPDATE SET data = excluded.data',
    );
    this.#upsert = upsert;
    this.#delete = c.prepare<[string, string, bigint]>(
      'DELETE FROM application_commands WHERE application_id = ? AND scope = ? AND id = ?',
    );
    const clear = c.prepare<[string, string]>(
      'DELETE FROM application_commands WHERE application_id = ? AND scope = ?',
    );
    this.#replace = db.transaction(
      (applicationId: string, scope: string, commands: readonly ApplicationCommandRecord[]) => {
        clear.run(applicationId, scope);
        for (const command of commands) upsert.run(toRow(command));
      },
    );
  }

  list(applicationId: string, scope: string): Promise<ApplicationCommandRecord[]> {
    return this.db.call(() =>
      this.#list.all(applicationId, scope).map((data) => fromJson<ApplicationCommandRecord>(data)),
    );
  }

  save(command: ApplicationCommandRecord): Promise<void> {
    return this.db.call(() => void this.#upsert.run(toRow(command)));
  }

  /** Deletes the scope's rows and inserts `commands` in one transaction. */
  saveAll(applicationId: string, scope: string, commands: readonly ApplicationCommandRecord[]): Promise<void> {
    return this.db.call(() => {
      this.#replace(applicationId, scope, commands);
    });
  }

  delete(applicationId: string, scope: string, commandId: string): Promise<void> {
    return this.db.call(() => void this.#delete.run(applicationId, scope, BigInt(commandId)));
  }
}
