import assert from 'node:assert/strict';

import { ConflictError } from '../../src/domain/errors.js';
import { compareSnowflakes } from '../../src/domain/snowflake.js';

/** Asserts that `promise` rejects with a ConflictError, with `message` when given. */
export async function assertConflict(promise: Promise<unknown>, message?: string): Promise<void> {
  await assert.rejects(promise, (thrown: unknown) => {
    assert.ok(thrown instanceof ConflictError, `expected ConflictError, got ${String(thrown)}`);
    if (message !== undefined) assert.equal(thrown.message, message);
    return true;
  });
}

/** Copies `records` sorted by id, for comparing lists whose order the port leaves open. */
export function sortedById<T extends { readonly id: string }>(records: readonly T[]): T[] {
  return [...records].sort((a, b) => compareSnowflakes(a.id, b.id));
}

/** The ids of `records`, in their order. */
export function idsOf(records: readonly { readonly id: string }[]): string[] {
  return records.map((record) => record.id);
}
