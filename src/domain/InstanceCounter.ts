/**
 * How many of each thing an instance holds (GET /policies/stats/, `chorus stats`), in Spacebar's shape:
 * `null` for a count the backend does not keep. SQLite's are exact (triggers); Cassandra's are counters the
 * stores add to, close but not exact (see CassandraInstanceCounter).
 */
export interface InstanceCounts {
  readonly user: number | null;
  readonly guild: number | null;
  readonly message: number | null;
  /** Guild memberships (one user in two guilds counts twice). */
  readonly members: number | null;
}

/** The instance's counts; cheap enough to answer every GET /policies/stats/ (a backend without them has none). */
export interface InstanceCounter {
  counts(): Promise<InstanceCounts>;
}

/** The answer of a backend that keeps no counts. */
export const UNCOUNTED: InstanceCounts = Object.freeze({ user: null, guild: null, message: null, members: null });
