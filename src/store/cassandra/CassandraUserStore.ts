import type { UserRecord } from '../../../actors/runtime/ports/records.js';
import type { UserStore } from '../../../actors/runtime/ports/stores.js';
import { ConflictError } from '../../domain/errors.js';
import type { CassandraInstanceCounter } from './CassandraInstanceCounter.js';
import { documentOf, type CassandraSession } from './CassandraSession.js';
import { UniqueClaims } from './UniqueClaims.js';

const EMAIL_TAKEN = 'Email already registered';
const TAG_TAKEN = 'Username and tag already taken';

/** The unique keys of a user as the lookup tables store them. */
interface UserKeys {
  readonly email: string | null;
  readonly tag: readonly [string, string];
}

function keysOf(user: UserRecord): UserKeys {
  return { email: user.email?.toLowerCase() ?? null, tag: [user.username, user.discriminator] };
}

const sameTag = (a: UserKeys, b: UserKeys) => a.tag[0] === b.tag[0] && a.tag[1] === b.tag[1];

/** A claim this call made (and must undo if a later step fails). */
interface Held {
  readonly claims: UniqueClaims;
  readonly key: readonly string[];
}

/**
 * UserStore on Cassandra. The record lives in `users`; unique email and username#discriminator are
 * lookup rows claimed by lightweight transaction BEFORE the record is written: a conflict writes nothing,
 * and a failure after a claim releases it, so no half-written account remains. Lookups by email or tag
 * check that the record found still carries that key (a claim can outlive a crashed writer briefly).
 */
export class CassandraUserStore implements UserStore {
  readonly #emails: UniqueClaims;
  readonly #tags: UniqueClaims;

  constructor(
    private readonly session: CassandraSession,
    private readonly counter: CassandraInstanceCounter,
  ) {
    this.#emails = new UniqueClaims(session, 'users_by_email', ['email']);
    this.#tags = new UniqueClaims(session, 'users_by_tag', ['username', 'discriminator']);
  }

  /** Inserts; ConflictError when the id, the email or the tag is taken (nothing is written then). */
  async create(user: UserRecord): Promise<void> {
    if ((await this.get(user.id)) !== undefined) throw new ConflictError('User already exists');
    const held = await this.#claim(user.id, keysOf(user), undefined);
    await this.#writeOrRelease(user, held, () => this.session.write('DELETE FROM users WHERE id = ?', [user.id]));
    this.counter.add('user', 1);
  }

  async get(id: string): Promise<UserRecord | undefined> {
    return documentOf<UserRecord>(await this.session.first('SELECT data FROM users WHERE id = ?', [id]));
  }

  async findByEmail(email: string): Promise<UserRecord | undefined> {
    const key = email.toLowerCase();
    const holder = await this.#emails.holder([key]);
    const user = holder === undefined ? undefined : await this.get(holder);
    return user !== undefined && keysOf(user).email === key ? user : undefined;
  }

  async findByTag(username: string, discriminator: string): Promise<UserRecord | undefined> {
    const holder = await this.#tags.holder([username, discriminator]);
    const user = holder === undefined ? undefined : await this.get(holder);
    return user?.username === username && user.discriminator === discriminator ? user : undefined;
  }

  /**
   * Replaces the record (a user that does not exist is left absent). A changed email or tag is claimed
   * first (ConflictError when taken, and the stored record is kept); the old ones are released after.
   */
  async update(user: UserRecord): Promise<void> {
    const stored = await this.get(user.id);
    if (stored === undefined) return;
    const [before, after] = [keysOf(stored), keysOf(user)];
    const held = await this.#claim(user.id, after, before);
    await this.#writeOrRelease(user, held, () => this.#put(stored));
    // Best effort: the update is done. A claim left behind is verified away by lookups and taken over
    // once stale, so a failed release must not fail the call.
    const frees: Promise<void>[] = [];
    if (before.email !== null && before.email !== after.email)
      frees.push(this.#emails.release([before.email], user.id));
    if (!sameTag(before, after)) frees.push(this.#tags.release(before.tag, user.id));
    await Promise.allSettled(frees);
  }

  /** Claims the keys in `keys` that `previous` does not already hold; all or none. */
  async #claim(userId: string, keys: UserKeys, previous: UserKeys | undefined): Promise<Held[]> {
    const held: Held[] = [];
    try {
      if (keys.email !== null && keys.email !== previous?.email) {
        const email = keys.email;
        const result = await this.#emails.claim([email], userId, async (holder) => {
          const record = await this.get(holder);
          return record !== undefined && keysOf(record).email === email;
        });
        if (result === 'taken') throw new ConflictError(EMAIL_TAKEN);
        if (result === 'claimed') held.push({ claims: this.#emails, key: [email] });
      }
      if (previous === undefined || !sameTag(keys, previous)) {
        const [username, discriminator] = keys.tag;
        const result = await this.#tags.claim(keys.tag, userId, async (holder) => {
          const record = await this.get(holder);
          return record?.username === username && record.discriminator === discriminator;
        });
        if (result === 'taken') throw new ConflictError(TAG_TAKEN);
        if (result === 'claimed') held.push({ claims: this.#tags, key: keys.tag });
      }
      return held;
    } catch (thrown) {
      await release(held, userId);
      throw thrown;
    }
  }

  /**
   * Writes the record after its claims. A failed write may still have landed (a timeout is ambiguous),
   * so it is undone first (`undo` deletes or restores the row, with a newer timestamp) and only then are
   * the claims released; if even the undo fails the claims stay, which is safe: a claim whose holder's
   * record does not carry the key is taken over once stale.
   */
  async #writeOrRelease(user: UserRecord, held: readonly Held[], undo: () => Promise<void>): Promise<void> {
    try {
      await this.#put(user);
    } catch (thrown) {
      if (held.length > 0 && (await succeeds(undo()))) await release(held, user.id);
      throw thrown;
    }
  }

  #put(user: UserRecord): Promise<void> {
    return this.session.write('INSERT INTO users (id, data) VALUES (?, ?)', [user.id, JSON.stringify(user)]);
  }
}

/** Undoes claims after a failed step; itself best effort (a stale claim is taken over later). */
async function release(held: readonly Held[], ownerId: string): Promise<void> {
  await Promise.allSettled(held.map(({ claims, key }) => claims.release(key, ownerId)));
}

/** Whether `work` resolved (its error is dropped: the caller is already failing with another). */
function succeeds(work: Promise<void>): Promise<boolean> {
  return work.then(
    () => true,
    () => false,
  );
}
