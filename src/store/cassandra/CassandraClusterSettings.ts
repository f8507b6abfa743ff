import { randomBytes } from 'node:crypto';
import { ServiceUnavailableError } from '../../domain/errors.js';
import { textColumn, type CassandraSession } from './CassandraSession.js';

/** Snowflake generator ids are 10 bits. */
const GENERATOR_IDS = 1024;
/** Compare-and-set attempts before a starting node gives up (each loses only to another node's start). */
const MAX_ATTEMPTS = 50;

/**
 * Settings every node of a cluster shares, kept in Cassandra (`cluster_settings`) rather than in
 * Redis: Redis holds coordination that may be lost and rebuilt (membership, leases), but losing these
 * would break the cluster. A new token secret would invalidate every token other nodes issued, and a
 * restarted id counter would hand a starting node the snowflake generator id of a live one, so two
 * nodes could issue the same message ids. Both are written with lightweight transactions.
 */
export class CassandraClusterSettings {
  constructor(private readonly session: CassandraSession) {}

  /** The configured secret, or the one the first node generated (every node then shares it). */
  async tokenSecret(configured: string): Promise<string> {
    if (configured) return configured;
    const generated = randomBytes(32).toString('base64url');
    const { applied, current } = await this.session.conditional(
      'INSERT INTO cluster_settings (name, value) VALUES (?, ?) IF NOT EXISTS',
      ['token_secret', generated],
    );
    const secret = applied ? generated : textColumn(current, 'value');
    if (!secret) throw new ServiceUnavailableError('cluster_settings holds no token secret');
    return secret;
  }

  /**
   * A snowflake generator id for a starting node: a cluster-wide counter modulo 1024, so two live
   * nodes share one only after 1,024 node starts in between.
   */
  async allocateGeneratorId(): Promise<number> {
    const name = 'snowflake_generator';
    let seen: string | undefined = textColumn(
      await this.session.first('SELECT value FROM cluster_settings WHERE name = ?', [name]),
      'value',
    );
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const next = String(Number(seen ?? '0') + 1);
      const { applied, current } =
        seen === undefined
          ? await this.session.conditional('INSERT INTO cluster_settings (name, value) VALUES (?, ?) IF NOT EXISTS', [
              name,
              next,
            ])
          : await this.session.conditional('UPDATE cluster_settings SET value = ? WHERE name = ? IF value = ?', [
              next,
              name,
              seen,
            ]);
      if (applied) return Number(next) % GENERATOR_IDS;
      seen = textColumn(current, 'value'); // another node started at the same moment: try after its value
    }
    throw new ServiceUnavailableError(`No snowflake generator id after ${MAX_ATTEMPTS} attempts`);
  }
}
