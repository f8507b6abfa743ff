import cassandra from 'cassandra-driver';

import { ServiceUnavailableError } from '../../domain/errors.js';
import { toStoreError } from './cassandraErrors.js';

type Client = cassandra.Client;
type Row = cassandra.types.Row;
type QueryOptions = cassandra.QueryOptions;

const { consistencies } = cassandra.types;

/**
 * Consistency levels, one choice for the whole store:
 * - Reads and writes at LOCAL_QUORUM. With RF 3 a write is acknowledged by 2 of 3 replicas and a read
 *   asks 2 of 3, so every read overlaps the last acknowledged write (read-your-writes across nodes, which
 *   actors moving between Chorus nodes rely on), and either keeps working with any one replica down.
 *   With RF 1 (a single test node) LOCAL_QUORUM is simply that node. LOCAL_ rather than plain QUORUM so a
 *   second data centre never sits on the request path.
 * - Lightweight transactions (uniqueness claims) at LOCAL_SERIAL for the Paxos phase, LOCAL_QUORUM for
 *   the commit, so a claim that returned "applied" is seen by every later LOCAL_QUORUM read.
 * - Every statement is prepared (`prepare: true`): parsed once per node, values bound by type.
 * - Plain reads, upserts, deletes and batches are marked idempotent (re-running one writes the same cells
 *   with the same client timestamp), which lets the driver retry them on another coordinator after a
 *   socket error; LWTs are not, because a retried claim could find its own earlier write.
 */
const READ: QueryOptions = { prepare: true, consistency: consistencies.localQuorum, isIdempotent: true };
const WRITE: QueryOptions = { prepare: true, consistency: consistencies.localQuorum, isIdempotent: true };
/** A counter update adds on each run: the driver must never retry one, or it would count twice. */
const COUNTER: QueryOptions = { prepare: true, consistency: consistencies.localQuorum, isIdempotent: false };
const CONDITIONAL: QueryOptions = {
  prepare: true,
  consistency: consistencies.localQuorum,
  serialConsistency: consistencies.localSerial,
  isIdempotent: false,
};

/** Rows fetched per round trip when reading a whole partition (members of a large guild). */
const PAGE_SIZE = 1000;

/** One CQL statement with its bound values. */
export interface Cql {
  readonly query: string;
  readonly params: readonly unknown[];
}

/** The outcome of a lightweight transaction: whether it applied, and the row it found when it did not. */
export interface Conditional {
  readonly applied: boolean;
  readonly current: Row | undefined;
}

/**
 * The stores' only door to Cassandra: fixed consistency levels, prepared statements, paging, and every
 * driver error mapped to an AppError (ServiceUnavailableError for anything a retry could fix).
 */
export class CassandraSession {
  #closed = false;

  constructor(private readonly client: Client) {}

  /** Opens the control connection and the pools; ServiceUnavailableError when no contact point answers. */
  async connect(): Promise<void> {
    await this.#call(() => this.client.connect());
  }

  /** Every row the query selects, paging through partitions larger than one page. */
  async rows(query: string, params: readonly unknown[]): Promise<Row[]> {
    const out: Row[] = [];
    let pageState: string | undefined;
    do {
      const options: QueryOptions = {
        ...READ,
        fetchSize: PAGE_SIZE,
        ...(pageState === undefined ? {} : { pageState }),
      };
      const result = await this.#call(() => this.client.execute(query, [...params], options));
      out.push(...result.rows);
      pageState = result.pageState ?? undefined;
    } while (pageState !== undefined);
    return out;
  }

  /** The first row the query selects (callers add LIMIT 1 or read by full key). */
  async first(query: string, params: readonly unknown[]): Promise<Row | undefined> {
    const result = await this.#call(() => this.client.execute(query, [...params], READ));
    return result.first() ?? undefined;
  }

  /** One unconditional write. */
  async write(query: string, params: readonly unknown[]): Promise<void> {
    await this.#call(() => this.client.execute(query, [...params], WRITE));
  }

  /** One counter update (`SET c = c + ?`), never retried by the driver (see COUNTER). */
  async count(query: string, params: readonly unknown[]): Promise<void> {
    await this.#call(() => this.client.execute(query, [...params], COUNTER));
  }

  /**
   * A LOGGED batch: the statements are applied together or (after a coordinator crash, by batchlog
   * replay) eventually all, never a part. Used to keep a main row and its lookup rows in step.
   * Statements on one partition skip the batchlog (Cassandra applies one mutation atomically).
   */
  async batch(statements: readonly Cql[]): Promise<void> {
    if (statements.length === 0) return;
    const queries = statements.map(({ query, params }) => ({ query, params: [...params] }));
    await this.#call(() => this.client.batch(queries, { ...WRITE, logged: true }));
  }

  /** A lightweight transaction (`IF NOT EXISTS`, `IF col = ?`), linearizable per partition. */
  async conditional(query: string, params: readonly unknown[]): Promise<Conditional> {
    const result = await this.#call(() => this.client.execute(query, [...params], CONDITIONAL));
    const applied = result.wasApplied();
    return { applied, current: applied ? undefined : (result.first() ?? undefined) };
  }

  /**
   * A schema statement (CREATE KEYSPACE/TABLE). Not prepared: it has no bound values and runs once;
   * the driver waits for schema agreement across live nodes before it resolves.
   */
  async ddl(query: string): Promise<void> {
    await this.#call(() => this.client.execute(query));
  }

  /** Runs `work` on each item, at most `limit` at a time (bulk deletes without flooding the coordinator). */
  async forEach<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < items.length) {
        const item = items[next] as T;
        next += 1;
        await work(item);
      }
    };
    await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  }

  /**
   * Waits until every live node reports the same schema version, polling up to `timeoutMs` (the
   * driver waits on its own after each DDL, but gives up after 10 s; on a busy three-node cluster
   * a node can lag longer). Resolves false when they still disagree.
   */
  async schemaAgreed(timeoutMs: number): Promise<boolean> {
    const giveUpAt = Date.now() + timeoutMs;
    for (;;) {
      // Part of the driver's API (metadata.checkSchemaAgreement) but missing from its type definitions.
      const metadata = this.client.metadata as unknown as { checkSchemaAgreement(): Promise<boolean> };
      const agreed = await this.#call(() => metadata.checkSchemaAgreement());
      if (agreed || Date.now() >= giveUpAt) return agreed;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** Shuts the client down; later calls reject with ServiceUnavailableError. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.client.shutdown();
  }

  async #call<T>(work: () => Promise<T>): Promise<T> {
    if (this.#closed) throw new ServiceUnavailableError('Storage is closed');
    try {
      return await work();
    } catch (thrown) {
      throw toStoreError(thrown);
    }
  }
}

/** A text column of a row; absent or null reads as undefined. */
export function textColumn(row: Row | undefined, column: string): string | undefined {
  const value: unknown = row?.get(column);
  return typeof value === 'string' ? value : undefined;
}

/** A bigint column of a row (the client decodes bigint as BigInt); absent or null reads as undefined. */
export function bigintColumn(row: Row | undefined, column: string): bigint | undefined {
  const value: unknown = row?.get(column);
  return typeof value === 'bigint' ? value : undefined;
}

/** Parses a stored JSON document (written by the same store, so trusted to match its type). */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the type is the caller's table's
export function fromJson<T>(data: string): T {
  return JSON.parse(data) as T;
}

/** The `data` documents of `rows`, skipping key-only rows (a write that raced a delete leaves one). */
export function documents<T>(rows: readonly Row[]): T[] {
  const out: T[] = [];
  for (const row of rows) {
    const data = textColumn(row, 'data');
    if (data !== undefined) out.push(fromJson<T>(data));
  }
  return out;
}

/** The `data` document of one row, or undefined. */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the type is the caller's table's
export function documentOf<T>(row: Row | undefined): T | undefined {
  const data = textColumn(row, 'data');
  return data === undefined ? undefined : fromJson<T>(data);
}
