import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';

import { ServiceUnavailableError, type AppError } from '../../domain/errors.js';
import { textColumn, type CassandraSession } from './CassandraSession.js';
import { BOOKKEEPING, MIGRATIONS, type Migration, type SchemaStatement } from './migrations.js';

/** How the schema runner is configured; the defaults suit a Chorus node. */
export interface SchemaOptions {
  readonly keyspace: string;
  /** SimpleStrategy replication factor used when the keyspace is created (an existing one is kept). */
  readonly replicationFactor: number;
  /** The schema to bring the keyspace up to; MIGRATIONS unless a test supplies its own. */
  readonly migrations?: readonly Migration[];
  /** How long to wait for another node's migration lock before giving up. */
  readonly lockWaitMs?: number;
  /** Told of each migration this node applied and how long it took (a multi-node keyspace takes minutes). */
  readonly onApplied?: (migration: Migration, elapsedMs: number) => void;
}

/** The lock row expires this long after its last refresh, so a crashed holder blocks others briefly. */
const LOCK_TTL_S = 60;
const LOCK_POLL_MS = 250;
const DEFAULT_LOCK_WAIT_MS = 180_000;
const LOCK_NAME = 'migrations';

/** CQL keyspace names: unquoted identifiers of at most 48 characters; lower case so none is folded. */
const KEYSPACE_NAME = /^[a-z][a-z0-9_]{0,47}$/;

/**
 * A deterministic table id (a name-based UUID of keyspace and table). Cassandra 5.0 assigns a random id
 * per CREATE TABLE at the coordinator, so two nodes creating "the same" table at once would make two
 * tables and lose writes to the loser; with `WITH ID = <this>` they create the identical table, and the
 * race is harmless even before the lock below exists.
 */
export function tableIdOf(keyspace: string, table: string): string {
  const bytes = createHash('sha1').update(`chorus/${keyspace}/${table}`).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50; // version 5 (name-based, SHA-1)
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80; // RFC 4122 variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** How long a starting node waits for a keyspace just created elsewhere to reach every Cassandra node. */
const KEYSPACE_SPREAD_MS = 30_000;

/**
 * Switches the session to `keyspace`, which may have just been created through another coordinator:
 * `USE` runs on every pooled connection, and a node that has not yet applied the new schema answers
 * "Keyspace ... does not exist". So it waits for schema agreement and tries again, a bounded number
 * of times, before failing the start.
 */
async function useKeyspace(session: CassandraSession, keyspace: string): Promise<void> {
  const giveUpAt = Date.now() + KEYSPACE_SPREAD_MS;
  for (;;) {
    try {
      await session.ddl(`USE ${keyspace}`);
      return;
    } catch (error) {
      if (Date.now() >= giveUpAt || !/does not exist/i.test(causeText(error))) throw error;
      await session.schemaAgreed(Math.max(0, giveUpAt - Date.now()));
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** The messages of an error and its causes, for matching a driver's answer. */
function causeText(error: unknown): string {
  const parts: string[] = [];
  for (let current: unknown = error; current instanceof Error; current = current.cause) parts.push(current.message);
  return parts.join(' | ');
}

/**
 * Creates the keyspace if missing, switches the session to it and applies the migrations it lacks.
 * Returns the versions this call applied (empty when the keyspace was up to date).
 *
 * Several Chorus nodes may start at once against one cluster. Two mechanisms keep that safe:
 * 1. Idempotence: every statement is `IF NOT EXISTS` and every table has a deterministic id, so running
 *    a statement twice, or on two nodes at once, yields one and the same schema.
 * 2. A lock row (`schema_lock`) taken with a lightweight transaction (`IF NOT EXISTS USING TTL`), so
 *    exactly one node applies migrations while the others wait and then find nothing left to do; the
 *    holder refreshes the TTL after each statement, and a crashed holder's lock expires within
 *    LOCK_TTL_S. The lock makes "apply, then record the version" a unit, so a version row is never
 *    written before its tables exist, and keeps schema changes from racing each other.
 * A node that finds every migration recorded skips the lock entirely (one read per start).
 */
export async function migrateKeyspace(session: CassandraSession, options: SchemaOptions): Promise<number[]> {
  const { keyspace, replicationFactor } = options;
  const migrations = options.migrations ?? MIGRATIONS;
  if (!KEYSPACE_NAME.test(keyspace)) throw new RangeError(`Invalid keyspace name: ${keyspace}`);
  if (!Number.isInteger(replicationFactor) || replicationFactor < 1) {
    throw new RangeError(`replicationFactor must be a positive integer, got ${replicationFactor}`);
  }
  checkOrder(migrations);
  const tableId = (name: string) => tableIdOf(keyspace, name);
  const run = (statement: SchemaStatement) =>
    session.ddl(typeof statement === 'string' ? statement : statement(tableId));

  await session.ddl(
    `CREATE KEYSPACE IF NOT EXISTS ${keyspace} WITH replication = ` +
      `{'class': 'SimpleStrategy', 'replication_factor': ${replicationFactor}}`,
  );
  await useKeyspace(session, keyspace);
  for (const statement of BOOKKEEPING) await run(statement);

  const pending = async () => {
    const applied = new Set(
      (await session.rows('SELECT version FROM schema_migrations', [])).map((row) => Number(row.get('version'))),
    );
    const known = migrations.at(-1)?.version ?? 0;
    const newest = Math.max(0, ...applied);
    if (newest > known) {
      throw new ServiceUnavailableError(
        `Keyspace ${keyspace} schema version ${newest} is newer than this build (${known})`,
      );
    }
    return migrations.filter((migration) => !applied.has(migration.version));
  };

  if ((await pending()).length === 0) return [];
  const owner = randomUUID();
  await acquireLock(session, owner, options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS);
  const done: number[] = [];
  try {
    for (const migration of await pending()) {
      const startedAt = Date.now();
      try {
        for (const statement of migration.statements) {
          await run(statement);
          await refreshLock(session, owner);
        }
        await migration.data?.(session, () => refreshLock(session, owner));
      } catch (thrown) {
        throw withCause(
          new ServiceUnavailableError(`Migration ${migration.version} (${migration.name}) failed`),
          thrown,
        );
      }
      await session.write('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [
        migration.version,
        migration.name,
        new Date(),
      ]);
      done.push(migration.version);
      options.onApplied?.(migration, Date.now() - startedAt);
    }
  } finally {
    await releaseLock(session, owner).catch(() => undefined); // the TTL frees it if this fails
  }
  return done;
}

async function acquireLock(session: CassandraSession, owner: string, waitMs: number): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    let holder: unknown;
    try {
      const { applied, current } = await session.conditional(
        'INSERT INTO schema_lock (name, owner, acquired_at) VALUES (?, ?, ?) IF NOT EXISTS USING TTL ?',
        [LOCK_NAME, owner, new Date(), LOCK_TTL_S],
      );
      holder = current?.get('owner');
      // Ours already: an earlier attempt timed out after Paxos had in fact written it.
      if (applied || String(holder) === owner) return;
    } catch (error) {
      // A lightweight transaction times out while a just-formed cluster settles (CAS write timeout): the
      // insert is idempotent for this owner, so try again until the wait is over.
      if (!(error instanceof ServiceUnavailableError) || Date.now() >= deadline) throw error;
      holder = `unknown (${error.message})`;
    }
    if (Date.now() >= deadline) {
      throw new ServiceUnavailableError(`Schema migration lock still held by ${String(holder)} after ${waitMs} ms`);
    }
    await delay(LOCK_POLL_MS);
  }
}

/** How long a lock refresh keeps retrying timed-out writes: well inside the lock's TTL. */
const REFRESH_RETRY_MS = 20_000;

async function refreshLock(session: CassandraSession, owner: string): Promise<void> {
  const deadline = Date.now() + REFRESH_RETRY_MS;
  let applied: boolean | undefined;
  while (applied === undefined) {
    try {
      ({ applied } = await session.conditional(
        'UPDATE schema_lock USING TTL ? SET owner = ?, acquired_at = ? WHERE name = ? IF owner = ?',
        [LOCK_TTL_S, owner, new Date(), LOCK_NAME, owner],
      ));
    } catch (error) {
      // As for the insert: a CAS write can time out while a just-formed cluster settles, and the update
      // is idempotent for its owner (a timed-out one that did apply still matches `IF owner`).
      if (!(error instanceof ServiceUnavailableError) || Date.now() >= deadline) throw error;
      await delay(LOCK_POLL_MS);
    }
  }
  if (!applied) throw new ServiceUnavailableError('Schema migration lock lost (expired while migrating)');
}

async function releaseLock(session: CassandraSession, owner: string): Promise<void> {
  await session.conditional('DELETE FROM schema_lock WHERE name = ? IF owner = ?', [LOCK_NAME, owner]);
}

/** The migrations recorded in the session's keyspace, oldest first. */
export async function appliedMigrations(session: CassandraSession): Promise<{ version: number; name: string }[]> {
  const rows = await session.rows('SELECT version, name FROM schema_migrations', []);
  return rows
    .map((row) => ({ version: Number(row.get('version')), name: textColumn(row, 'name') ?? '' }))
    .sort((a, b) => a.version - b.version);
}

/** Refuses a migration list whose versions are not positive and strictly increasing. */
function checkOrder(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    const previous = index === 0 ? 0 : (migrations[index - 1]?.version ?? 0);
    if (!Number.isInteger(migration.version) || migration.version <= previous) {
      throw new RangeError(`Migration versions must be positive and increasing; got ${migration.version}`);
    }
  });
}

function withCause<E extends AppError>(error: E, cause: unknown): E {
  error.cause = cause;
  return error;
}
