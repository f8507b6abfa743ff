import { InternalError } from '../../domain/errors.js';

/** The largest value of a CQL `bigint`; generated snowflakes stay below it until 2084. */
export const MAX_CQL_BIGINT = (1n << 63n) - 1n;

/** Discord's bucket width: ten days of snowflake time per messages partition. */
export const BUCKET_MS = 10n * 86_400_000n;

/** A snowflake as a CQL `bigint` key, or undefined when it is not a decimal that fits one (no such row). */
export function keyOf(id: string): bigint | undefined {
  if (!/^\d{1,20}$/.test(id)) return undefined;
  const value = BigInt(id);
  return value <= MAX_CQL_BIGINT ? value : undefined;
}

/** The `bigint` key of an id being written; an id that has none is a caller bug, not a user error. */
export function writableKey(id: string): bigint {
  const value = keyOf(id);
  if (value === undefined) throw new InternalError({ cause: new RangeError(`Not a storable snowflake: ${id}`) });
  return value;
}

/** A page cursor as a number; any decimal counts, even one past the bigint range (the caller clamps). */
export function cursorOf(id: string): bigint {
  if (!/^\d{1,20}$/.test(id)) throw new InternalError({ cause: new RangeError(`Not a snowflake cursor: ${id}`) });
  return BigInt(id);
}

/** The messages bucket of a snowflake: its timestamp (ms since the Discord epoch) in 10-day windows. */
export function bucketOf(id: bigint): number {
  return Number((id >> 22n) / BUCKET_MS);
}

/** A decimal id read back from a `bigint` column (the driver decodes them as BigInt). */
export function idText(value: unknown): string {
  if (typeof value !== 'bigint')
    throw new InternalError({ cause: new TypeError(`Not a bigint column: ${String(value)}`) });
  return value.toString();
}
