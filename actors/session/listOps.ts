/** One row of a list as the diff sees it: whose row it is and a fingerprint of what it shows. */
export interface ListRow {
  /** Identity: a row with the same key in both lists is the same row, moved or changed in place. */
  readonly key: string;
  /** Changes whenever what the row shows changes. */
  readonly stamp: number;
}

/** A row op as GUILD_MEMBER_LIST_UPDATE carries it; INSERT and UPDATE name the new row. */
export type ListOp<T> =
  | { readonly op: 'INSERT'; readonly index: number; readonly row: T }
  | { readonly op: 'UPDATE'; readonly index: number; readonly row: T }
  | { readonly op: 'DELETE'; readonly index: number };

const same = (a: ListRow | undefined, b: ListRow | undefined): boolean =>
  a !== undefined && b !== undefined && a.key === b.key && a.stamp === b.stamp;

/**
 * The DELETE / INSERT / UPDATE ops that, applied in order to `oldRows` (splice semantics, as the client
 * does), give exactly `newRows`. Rows that keep their relative order stay put (an UPDATE when their stamp
 * changed); the others are deleted and inserted where they now belong, so a member moving from the
 * offline group to the online one costs one DELETE and one INSERT. Linear in the rows plus
 * O(k log k) for the k rows between the common head and tail.
 */
export function listOps<T extends ListRow>(oldRows: readonly ListRow[], newRows: readonly T[]): ListOp<T>[] {
  let head = 0;
  while (head < oldRows.length && head < newRows.length && same(oldRows[head], newRows[head])) head += 1;
  let tail = 0;
  while (
    head + tail < oldRows.length &&
    head + tail < newRows.length &&
    same(oldRows[oldRows.length - 1 - tail], newRows[newRows.length - 1 - tail])
  )
    tail += 1;
  const oldMiddle = oldRows.slice(head, oldRows.length - tail);
  const newMiddle = newRows.slice(head, newRows.length - tail);

  const newPlace = new Map<string, number>();
  newMiddle.forEach((row, index) => {
    if (!newPlace.has(row.key)) newPlace.set(row.key, index);
  });
  const targets = oldMiddle.map((row) => newPlace.get(row.key) ?? -1);
  const kept = longestIncreasing(targets);

  const ops: ListOp<T>[] = [];
  // Deleting from the end keeps the indices of the rows still to delete valid.
  for (let index = oldMiddle.length - 1; index >= 0; index -= 1) {
    if (!kept.has(index)) ops.push({ op: 'DELETE', index: head + index });
  }
  // What is left is the kept rows, in the new order; every other new row goes in at its final index.
  const keptStamp = new Map<number, number>();
  for (const index of kept) keptStamp.set(targets[index] ?? -1, oldMiddle[index]?.stamp ?? 0);
  newMiddle.forEach((row, index) => {
    const stamp = keptStamp.get(index);
    if (stamp === undefined) ops.push({ op: 'INSERT', index: head + index, row });
    else if (stamp !== row.stamp) ops.push({ op: 'UPDATE', index: head + index, row });
  });
  return ops;
}

/** Positions of a longest strictly increasing run of the non-negative values (patience sorting). */
function longestIncreasing(values: readonly number[]): Set<number> {
  const tops: number[] = []; // tops[k]: position of the smallest last value of a run of length k + 1
  const previous = new Array<number>(values.length).fill(-1);
  values.forEach((value, position) => {
    if (value < 0) return;
    let low = 0;
    let high = tops.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((values[tops[middle] ?? 0] ?? 0) < value) low = middle + 1;
      else high = middle;
    }
    if (low > 0) previous[position] = tops[low - 1] ?? -1;
    tops[low] = position;
  });
  const run = new Set<number>();
  for (let position = tops[tops.length - 1] ?? -1; position >= 0; position = previous[position] ?? -1)
    run.add(position);
  return run;
}
