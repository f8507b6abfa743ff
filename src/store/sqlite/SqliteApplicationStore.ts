import type { ApplicationRecord } from '../../../actors/runtime/ports/records.js';
import type { ApplicationStore } from '../../../actors/runtime/ports/stores.js';
import { fromJson, type SqliteDatabase } from './SqliteDatabase.js';

interface ApplicationRow {
  readonly id: string;
  readonly owner_id: string;
  readonly bot_user_id: string | null;
  readonly data: string;
}

function applicationConflict(columns: string): string | undefined {
  if (columns.includes('applications.bot_user_id')) return 'Bot user already belongs to an application';
  if (columns.includes('applications.id')) return 'Application already exists';
  return undefined;
}

function toRow(application: ApplicationRecord): ApplicationRow {
  return {
    id: application.id,
    owner_id: application.owner_id,
    bot_user_id: application.bot_user_id,
    data: JSON.stringify(application),
  };
}

/** ApplicationStore on SQLite, indexed by owner and by bot user. */
export class SqliteApplicationStore implements ApplicationStore {
  readonly #insert;
  readonly #update;
  readonly #byId;
  readonly #byOwner;
  readonly #byBotUser;

  constructor(private readonly db: SqliteDatabase) {
    const c = db.connection;
    this.#insert = c.prepare<ApplicationRow>(
      'INSERT INTO applications (id, owner_id, bot_user_id, data) VALUES (@id, @owner_id, @bot_user_id, @data)',
    );
    this.#update = c.prepare<ApplicationRow>(
      'UPDATE applications SET owner_id = @owner_id, bot_user_id = @bot_user_id, data = @data WHERE id = @id',
    );
    this.#byId = c.prepare<[string], string>('SELECT data FROM applications WHERE id = ?').pluck();
    this.#byOwner = c
      .prepare<[string], string>('SELECT data FROM applications WHERE owner_id = ? ORDER BY length(id), id')
      .pluck();
    this.#byBotUser = c.prepare<[string], string>('SELECT data FROM applications WHERE bot_user_id = ?').pluck();
  }

  /** Inserts; ConflictError when the id or the bot user is already taken. */
  create(application: ApplicationRecord): Promise<void> {
    return this.db.call(() => void this.#insert.run(toRow(application)), applicationConflict);
  }

  get(id: string): Promise<ApplicationRecord | undefined> {
    return this.db.call(() => parse(this.#byId.get(id)));
  }

  /** Replaces the record; an application that does not exist is left absent. */
  update(application: ApplicationRecord): Promise<void> {
    return this.db.call(() => void this.#update.run(toRow(application)), applicationConflict);
  }

  listByOwner(ownerId: string): Promise<ApplicationRecord[]> {
    return this.db.call(() => this.#byOwner.all(ownerId).map((data) => fromJson<ApplicationRecord>(data)));
  }

  findByBotUser(botUserId: string): Promise<ApplicationRecord | undefined> {
    return this.db.call(() => parse(this.#byBotUser.get(botUserId)));
  }
}

function parse(data: string | undefined): ApplicationRecord | undefined {
  return data === undefined ? undefined : fromJson<ApplicationRecord>(data);
}
