import type { UserRecord } from '../../../actors/runtime/ports/records.js';
import type { UserStore } from '../../../actors/runtime/ports/stores.js';
import { fromJson, type SqliteDatabase } from './SqliteDatabase.js';

/** Bound values of an insert or update: the record plus the unique keys it is indexed by. */
interface UserRow {
  readonly id: string;
  readonly email: string | null;
  readonly username: string;
  readonly discriminator: string;
  readonly data: string;
}

/** Names the uniqueness rule a user write broke. */
function userConflict(columns: string): string | undefined {
  if (columns.includes('users.email')) return 'Email already registered';
  if (columns.includes('users.username')) return 'Username and tag already taken';
  if (columns.includes('users.id')) return 'User already exists';
  return undefined;
}

function toRow(user: UserRecord): UserRow {
  return {
    id: user.id,
    email: user.email?.toLowerCase() ?? null,
    username: user.username,
    discriminator: user.discriminator,
    data: JSON.stringify(user),
  };
}

/** UserStore on SQLite: unique email and username#discriminator are enforced by the schema. */
export class SqliteUserStore implements UserStore {
  readonly #insert;
  readonly #update;
  readonly #byId;
  readonly #byEmail;
  readonly #byTag;

  constructor(private readonly db: SqliteDatabase) {
    const c = db.connection;
    this.#insert = c.prepare<UserRow>(
      `INSERT INTO users (id, email, username, discriminator, data)
       VALUES (@id, @email, @username, @discriminator, @data)`,
    );
    this.#update = c.prepare<UserRow>(
      `UPDATE users SET email = @email, username = @username, discriminator = @discriminator, data = @data
       WHERE id = @id`,
    );
    this.#byId = c.prepare<[string], string>('SELECT data FROM users WHERE id = ?').pluck();
    this.#byEmail = c.prepare<[string], string>('SELECT data FROM users WHERE email = ?').pluck();
    this.#byTag = c
      .prepare<[string, string], string>('SELECT data FROM users WHERE username = ? AND discriminator = ?')
      .pluck();
  }

  create(user: UserRecord): Promise<void> {
    return this.db.call(() => void this.#insert.run(toRow(user)), userConflict);
  }

  get(id: string): Promise<UserRecord | undefined> {
    return this.db.call(() => parse(this.#byId.get(id)));
  }

  findByEmail(email: string): Promise<UserRecord | undefined> {
    return this.db.call(() => parse(this.#byEmail.get(email.toLowerCase())));
  }

  findByTag(username: string, discriminator: string): Promise<UserRecord | undefined> {
    return this.db.call(() => parse(this.#byTag.get(username, discriminator)));
  }

  /** Replaces the record; a user that does not exist is left absent. */
  update(user: UserRecord): Promise<void> {
    return this.db.call(() => void this.#update.run(toRow(user)), userConflict);
  }
}

function parse(data: string | undefined): UserRecord | undefined {
  return data === undefined ? undefined : fromJson<UserRecord>(data);
}
