import { textColumn, type CassandraSession } from './CassandraSession.js';

/**
 * A claim older than this whose holder no longer uses the key is abandoned (its writer crashed between
 * claiming and writing, or between writing and releasing an old key) and may be taken over. Every claim
 * is followed by its main-row write within one driver timeout (12 s), so a minute is a safe margin.
 */
const STALE_CLAIM_MS = 60_000;

/** What claiming a unique key found: newly claimed, already held by the same owner, or held by another. */
export type ClaimResult = 'claimed' | 'ours' | 'taken';

/**
 * Unique keys (an email, a username#discriminator) held in a lookup table `(key...) → owner_id`, and
 * written only by lightweight transactions: `INSERT ... IF NOT EXISTS` to claim, `DELETE ... IF owner_id`
 * to release. Paxos makes a claim linearizable: of two nodes claiming one email at once, exactly one
 * sees `applied`. (Plain writes never touch these rows; mixing them with LWTs breaks that guarantee.)
 */
export class UniqueClaims {
  readonly #where: string;

  constructor(
    private readonly session: CassandraSession,
    private readonly table: string,
    private readonly keyColumns: readonly string[],
  ) {
    this.#where = keyColumns.map((column) => `${column} = ?`).join(' AND ');
  }

  /** The owner id holding `key`, if any. */
  async holder(key: readonly string[]): Promise<string | undefined> {
    const row = await this.session.first(`SELECT owner_id FROM ${this.table} WHERE ${this.#where}`, key);
    return textColumn(row, 'owner_id');
  }

  /**
   * Claims `key` for `ownerId`. A key held by another owner is `taken`, unless the claim is stale and
   * `holderUses` says its holder's record no longer carries the key; then it is taken over.
   */
  async claim(
    key: readonly string[],
    ownerId: string,
    holderUses: (holderId: string) => Promise<boolean>,
  ): Promise<ClaimResult> {
    const columns = [...this.keyColumns, 'owner_id', 'claimed_at'].join(', ');
    const marks = [...this.keyColumns, 'owner_id', 'claimed_at'].map(() => '?').join(', ');
    const first = await this.session.conditional(
      `INSERT INTO ${this.table} (${columns}) VALUES (${marks}) IF NOT EXISTS`,
      [...key, ownerId, new Date()],
    );
    if (first.applied) return 'claimed';
    const holder = textColumn(first.current, 'owner_id');
    if (holder === ownerId) return 'ours';
    if (holder === undefined) return 'taken';
    const claimedAt: unknown = first.current?.get('claimed_at');
    const old = !(claimedAt instanceof Date) || Date.now() - claimedAt.getTime() > STALE_CLAIM_MS;
    if (!old || (await holderUses(holder))) return 'taken';
    const takeover = await this.session.conditional(
      `UPDATE ${this.table} SET owner_id = ?, claimed_at = ? WHERE ${this.#where} IF owner_id = ?`,
      [ownerId, new Date(), ...key, holder],
    );
    return takeover.applied ? 'claimed' : 'taken';
  }

  /** Frees `key` if `ownerId` still holds it. */
  async release(key: readonly string[], ownerId: string): Promise<void> {
    await this.session.conditional(`DELETE FROM ${this.table} WHERE ${this.#where} IF owner_id = ?`, [...key, ownerId]);
  }
}
