/**
 * Hits a node may grant without asking Redis: capacity it reserved from a shared window in a chunk.
 *
 * A request landing on a node used to cost one round trip to Redis per request (the global window and
 * the route's, in one script). For a busy window the node now reserves several hits at once (INCRBY
 * chunk) and grants them locally until they run out or the window ends. The limit still holds across
 * nodes: Redis counts every reserved hit, so the nodes together never grant more than the limit in a
 * window. What a node reserved and did not use is lost to the others for the rest of that window, so a
 * client spreading its requests over nodes may be refused a little before the limit; the chunk is kept
 * at most half of what the window had left, less what this node's reservations still on their way to
 * Redis asked for (requests missing the reservation in the same turn must not each claim the same half),
 * and only windows with a large limit and a short life (the per-second global limit, a raised message
 * limit) are chunked: login attempts, session starts and Discord's 5 messages per 5 s are still counted
 * hit by hit.
 */

/** Windows below this limit are counted one hit at a time (a reservation would be a large share). */
const MIN_CHUNKED_LIMIT = 20;
/** Windows living longer are counted one hit at a time (an unused reservation would linger). */
const MAX_CHUNKED_WINDOW_MS = 10_000;
/** Largest reservation: at a few thousand requests a second, a round trip per this many. */
const MAX_CHUNK = 64;

/** Whether a window is reserved in chunks at all (else every hit is one round trip, as before). */
const chunkable = (limit: number, windowMs: number): boolean =>
  limit >= MIN_CHUNKED_LIMIT && windowMs <= MAX_CHUNKED_WINDOW_MS;

interface Reservation {
  /** Hits reserved and not granted yet. */
  left: number;
  /** When the window ends, on this node's clock (measured from before the reservation was sent: never late). */
  resetAt: number;
  /** The window's count in Redis at the last reservation (every node's hits and reservations). */
  count: number;
  /** Size of the last reservation; the next one in the same window doubles it. */
  chunk: number;
  readonly windowMs: number;
}

/** A hit answered from this node's reservation: what the window looks like from here. */
export interface LocalGrant {
  readonly allowed: boolean;
  readonly remaining: number;
  readonly resetAfterMs: number;
}

/** A window's reply to a reservation: its count after adding `chunk`, and its remaining life. */
export interface Reserved {
  readonly chunk: number;
  readonly count: number;
  readonly ttlMs: number;
}

export class RateReservations {
  readonly #book = new Map<string, Reservation>();
  /** Hits asked of Redis by reservations not answered yet, per key (claimed, not in `count` yet). */
  readonly #inFlight = new Map<string, number>();
  #nextSweepAt = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Takes one hit from this node's reservation of the window, if it has one left; refuses it when the
   * window was already spent (Redis only counts up within a window, so it would refuse too).
   */
  take(key: string, limit: number): LocalGrant | undefined {
    const now = this.now();
    const reservation = this.#book.get(key);
    if (reservation === undefined || reservation.resetAt <= now) return undefined;
    const resetAfterMs = reservation.resetAt - now;
    if (reservation.left >= 1) {
      reservation.left -= 1;
      return { allowed: true, remaining: Math.max(0, limit - reservation.count + reservation.left), resetAfterMs };
    }
    return reservation.count >= limit ? { allowed: false, remaining: 0, resetAfterMs } : undefined;
  }

  /**
   * How many hits to reserve for a window this node could not serve locally (1: count just this one).
   * The chunk counts as claimed until `release` is called with it, once its Redis call settled (answered
   * or failed): every call must be followed by exactly one `release`.
   */
  chunkFor(key: string, limit: number, windowMs: number): number {
    const inFlight = this.#inFlight.get(key) ?? 0;
    const chunk = this.#size(key, limit, windowMs, inFlight);
    this.#inFlight.set(key, inFlight + chunk);
    return chunk;
  }

  /** Ends the claim of a chunk from `chunkFor`: its Redis call settled (its reply, if any, goes to `record`). */
  release(key: string, chunk: number): void {
    const inFlight = (this.#inFlight.get(key) ?? 0) - chunk;
    if (inFlight > 0) this.#inFlight.set(key, inFlight);
    else this.#inFlight.delete(key);
  }

  #size(key: string, limit: number, windowMs: number, inFlight: number): number {
    if (!chunkable(limit, windowMs)) return 1;
    const now = this.now();
    const last = this.#book.get(key);
    if (last === undefined || last.resetAt <= now - windowMs) return 1; // no traffic in the previous window
    const open = last.resetAt > now;
    // What no node has counted yet, less what this node's unanswered reservations asked for.
    const unclaimed = (open ? limit - last.count : limit) - inFlight;
    const wanted = open ? last.chunk * 2 : last.chunk;
    return Math.max(1, Math.min(wanted, MAX_CHUNK, Math.floor(unclaimed / 2)));
  }

  /**
   * Notes a reservation's reply (sent at `sentAt`) and returns how many of its hits were granted,
   * one of which is the caller's; the rest wait here for the node's next requests.
   */
  record(key: string, limit: number, windowMs: number, sentAt: number, reply: Reserved): number {
    const granted = Math.max(0, Math.min(reply.chunk, limit - (reply.count - reply.chunk)));
    if (!chunkable(limit, windowMs)) return granted; // counted hit by hit: nothing to keep
    const now = this.now();
    this.#sweep(now);
    const resetAt = sentAt + reply.ttlMs;
    const current = this.#book.get(key);
    const left = Math.max(0, granted - 1);
    if (current !== undefined && current.resetAt > now) {
      // Same window (a reservation never outlives it here): add to what concurrent requests reserved.
      current.left += left;
      current.count = Math.max(current.count, reply.count);
      current.chunk = reply.chunk;
    } else {
      this.#book.set(key, { left, resetAt, count: reply.count, chunk: reply.chunk, windowMs });
    }
    return granted;
  }

  /** Forgets the windows of these keys (they were closed in Redis). */
  forget(keys: readonly string[]): void {
    for (const key of keys) this.#book.delete(key);
  }

  /** Drops windows that ended over a window ago (kept that long only to size the next window's chunk). */
  #sweep(now: number): void {
    if (now < this.#nextSweepAt) return;
    this.#nextSweepAt = now + 1_000;
    for (const [key, reservation] of this.#book) {
      if (reservation.resetAt <= now - reservation.windowMs) this.#book.delete(key);
    }
  }
}
