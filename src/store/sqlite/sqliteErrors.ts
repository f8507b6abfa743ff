import Database from 'better-sqlite3';

import { AppError, ConflictError, InternalError, ServiceUnavailableError } from '../../domain/errors.js';

/**
 * Names the conflict for a broken uniqueness rule, given the constraint's columns as SQLite reports
 * them (`users.email`, `users.username, users.discriminator`); undefined lets the caller fall back.
 */
export type ConflictNamer = (columns: string) => string | undefined;

/** Result codes meaning the engine cannot take the call now (locked, disk full, I/O, read-only). */
const UNAVAILABLE_CODES = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|READONLY|CANTOPEN|NOMEM|PROTOCOL|INTERRUPT|NOLFS)/;

/** Converts whatever a better-sqlite3 call threw into the AppError the storage ports promise. */
export function toStoreError(thrown: unknown, nameConflict: ConflictNamer = () => undefined): AppError {
  if (thrown instanceof Database.SqliteError) {
    if (thrown.code === 'SQLITE_CONSTRAINT_UNIQUE' || thrown.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
      const columns = thrown.message.replace(/^UNIQUE constraint failed: /, '');
      return new ConflictError(nameConflict(columns) ?? 'Already exists');
    }
    if (UNAVAILABLE_CODES.test(thrown.code)) return withCause(new ServiceUnavailableError(), thrown);
  }
  return thrown instanceof AppError ? thrown : new InternalError({ cause: thrown });
}

/** Attaches the engine's error so logs keep it (ServiceUnavailableError takes no options). */
export function withCause<E extends Error>(error: E, cause: unknown): E {
  error.cause = cause;
  return error;
}
