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
 * changed); the others are deleted and inserted where they now belong. Anchors (group headers) stay put
 * whenever they can, so a member moving from the offline group to the online one costs one DELETE and one
 * INSERT of that member. Linear in the rows plus O(k log k) for the k rows between the common head and tail.
 */
export function listOps<T extends ListRow>(
  oldRows: readonly ListRow[],
  newRows: readonly T[],
  isAnchor: (row: ListRow) => boolean = () => false,
): ListOp<T>[] {
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
  const kept = heaviestIncreasing(targets, oldMiddle.map(isAnchor), newMiddle.length);

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

/**
 * Positions of a heaviest strictly increasing run of the non-negative values (a row weighs 1, an anchor more
 * than all other rows together), found with a Fenwick tree of the best run ending at each value.
 */
function heaviestIncreasing(values: readonly number[], anchored: readonly boolean[], size: number): Set<number> {
  const score = values.map((_, position) => (anchored[position] ? values.length + 1 : 1));
  const previous = new Array<number>(values.length).fill(-1);
  const best = new Array<number>(size + 1).fill(-1); // best[i]: end of the heaviest run over values of node i
  const heavier = (a: number, b: number): boolean => a >= 0 && (b < 0 || (score[a] ?? 0) > (score[b] ?? 0));
  const bestBelow = (value: number): number => {
    let found = -1;
    for (let node = value; node > 0; node -= node & -node)
      if (heavier(best[node] ?? -1, found)) found = best[node] ?? -1;
    return found;
  };
  values.forEach((value, position) => {
    if (value < 0) return;
    const before = bestBelow(value);
    previous[position] = before;
    if (before >= 0) score[position] = (score[position] ?? 0) + (score[before] ?? 0);
    for (let node = value + 1; node <= size; node += node & -node)
      if (heavier(position, best[node] ?? -1)) best[node] = position;
  });
  const run = new Set<number>();
  for (let position = bestBelow(size); position >= 0; position = previous[position] ?? -1) run.add(position);
  return run;
}
