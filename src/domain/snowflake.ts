/** Discord's epoch (2015-01-01T00:00:00Z); snowflakes count milliseconds from it. */
export const DISCORD_EPOCH_MS = 1_420_070_400_000n;

/** Milliseconds since the Unix epoch encoded in a snowflake. */
export function snowflakeTimestampMs(id: string): number {
  return Number((BigInt(id) >> 22n) + DISCORD_EPOCH_MS);
}

/** The smallest snowflake a generator could assign at `timestampMs`; used as a time cursor and for buckets. */
export function snowflakeAt(timestampMs: number): string {
  return ((BigInt(timestampMs) - DISCORD_EPOCH_MS) << 22n).toString();
}

/** 2^64 - 1, the largest snowflake, in decimal (20 digits). */
const MAX_SNOWFLAKE = ((1n << 64n) - 1n).toString();

/** True when `value` is a decimal string that fits a 64-bit snowflake. */
export function isSnowflake(value: unknown): value is string {
  // Below 2^64 without a BigInt per check (it runs on every id in a path): up to 19 digits always are, and 20-digit
  // strings order as their numbers do.
  return typeof value === 'string' && /^\d{1,20}$/.test(value) && (value.length < 20 || value <= MAX_SNOWFLAKE);
}

/** Compares two snowflakes numerically (they sort by time). */
export function compareSnowflakes(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The newer of two snowflakes; null only when both are. */
export function newerSnowflake(a: string | null, b: string | null): string | null {
  if (a === null || b === null) return a ?? b;
  return compareSnowflakes(a, b) >= 0 ? a : b;
}

/**
 * Generates Discord-layout snowflakes: 42 bits of ms since the Discord epoch, a 10-bit generator id
 * (worker << 5 | process) that must be unique per live node, and a 12-bit per-ms increment.
 */
export class SnowflakeGenerator {
  #lastMs = 0n;
  #increment = 0n;
  readonly #generatorBits: bigint;

  constructor(
    generatorId: number,
    private readonly now: () => number = Date.now,
  ) {
    if (!Number.isInteger(generatorId) || generatorId < 0 || generatorId > 1023) {
      throw new RangeError(`generatorId must be 0..1023, got ${generatorId}`);
    }
    this.#generatorBits = BigInt(generatorId) << 12n;
  }

  /** The next id; strictly greater than every id this generator returned before. */
  next(): string {
    let ms = BigInt(this.now()) - DISCORD_EPOCH_MS;
    if (ms < this.#lastMs) ms = this.#lastMs; // clock stepped back: keep ids monotonic
    if (ms === this.#lastMs) {
      this.#increment += 1n;
      if (this.#increment > 0xfffn) {
        ms += 1n; // 4096 ids in one ms: borrow the next ms rather than repeat an id
        this.#increment = 0n;
      }
    } else {
      this.#increment = 0n;
    }
    this.#lastMs = ms;
    return ((ms << 22n) | this.#generatorBits | this.#increment).toString();
  }
}
