import assert from 'node:assert/strict';
import { listOps, type ListOp, type ListRow } from '../../../actors/session/listOps.js';

const row = (key: string, stamp = 0): ListRow => ({ key, stamp });
const rows = (keys: string): ListRow[] => keys.split(' ').map((key) => row(key));

/** What the client does with the ops: splices rows in and out and replaces them, in order. */
function apply(old: readonly ListRow[], ops: readonly ListOp<ListRow>[]): ListRow[] {
  const out = [...old];
  for (const op of ops) {
    assert.ok(op.index >= 0 && op.index <= out.length, `${op.op} at ${op.index} of ${out.length}`);
    if (op.op === 'INSERT') out.splice(op.index, 0, op.row);
    else if (op.op === 'DELETE') out.splice(op.index, 1);
    else out[op.index] = op.row;
  }
  return out;
}

function assertTurnsInto(old: readonly ListRow[], next: readonly ListRow[]): ListOp<ListRow>[] {
  const ops = listOps(old, next);
  assert.deepEqual(apply(old, ops), next);
  return ops;
}

/** A small deterministic generator, so a failing case can be replayed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let index = out.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [out[index], out[other]] = [out[other] as T, out[index] as T];
  }
  return out;
}

describe('listOps', () => {
  it('sends nothing for an unchanged list', () => {
    assert.deepEqual(assertTurnsInto(rows('a b c d e f'), rows('a b c d e f')), []);
  });

  it('moves a member between groups by one DELETE and one INSERT, and UPDATEs the group headers', () => {
    // O = online header, F = offline header; member "c" comes online.
    const old = [row('O', 2), row('a'), row('b'), row('F', 3), row('c'), row('d'), row('e')];
    const next = [row('O', 3), row('a'), row('c'), row('b'), row('F', 2), row('d'), row('e')];
    const ops = assertTurnsInto(old, next);
    assert.deepEqual(
      ops.map((op) => [op.op, op.index]),
      [
        ['DELETE', 4],
        ['UPDATE', 0],
        ['INSERT', 2],
        ['UPDATE', 4],
      ],
    );
  });

  it('keeps group headers in place and moves the members, even where moving the header would take fewer ops', () => {
    // Two members come online at once: moving "F" up would be one DELETE and one INSERT, but the client
    // would see the offline header jump; the members are the rows that move.
    const header = (row: ListRow): boolean => row.key === 'O' || row.key === 'F';
    const old = [row('O', 1), row('me'), row('F', 3), row('a'), row('b'), row('c')];
    const next = [row('O', 3), row('me'), row('a', 1), row('b', 1), row('F', 1), row('c')];
    const ops = listOps(old, next, header);
    assert.deepEqual(apply(old, ops), next);
    assert.deepEqual(
      ops.map((op) => [op.op, op.index, op.op === 'DELETE' ? '' : op.row.key]),
      [
        ['DELETE', 4, ''],
        ['DELETE', 3, ''],
        ['UPDATE', 0, 'O'],
        ['INSERT', 2, 'a'],
        ['INSERT', 3, 'b'],
        ['UPDATE', 4, 'F'],
      ],
    );
  });

  it('UPDATEs a row whose content changed in place', () => {
    const ops = assertTurnsInto(rows('a b c'), [row('a'), row('b', 7), row('c')]);
    assert.deepEqual(ops, [{ op: 'UPDATE', index: 1, row: row('b', 7) }]);
  });

  it('inserts a group header that appears and deletes one that empties', () => {
    assertTurnsInto([row('F', 2), row('a'), row('b')], [row('O', 1), row('a'), row('F', 1), row('b')]);
    assertTurnsInto([row('O', 1), row('a'), row('F', 1), row('b')], [row('F', 2), row('a'), row('b')]);
  });

  it('handles empty lists on either side', () => {
    assert.equal(assertTurnsInto([], rows('a b c')).length, 3);
    assert.equal(assertTurnsInto(rows('a b c'), []).length, 3);
    assert.deepEqual(assertTurnsInto([], []), []);
  });

  it('still gives the new rows when keys repeat', () => {
    assertTurnsInto(rows('a b a b'), rows('b b a a'));
    assertTurnsInto(rows('a a a'), rows('a'));
  });

  it('turns any permutation of a list into another, with changed, added and removed rows', () => {
    const random = seeded(11);
    const keys = 'abcdefghijklmnopqrstuvwxyz0123456789'.split('');
    for (let round = 0; round < 500; round += 1) {
      const size = Math.floor(random() * 30);
      const old = shuffled(keys, random)
        .slice(0, size)
        .map((key) => row(key, Math.floor(random() * 3)));
      const kept = old.filter(() => random() < 0.8).map((item) => (random() < 0.2 ? row(item.key, 9) : item));
      const added = keys
        .filter((key) => !old.some((item) => item.key === key) && random() < 0.1)
        .map((key) => row(key));
      const next = random() < 0.5 ? shuffled([...kept, ...added], random) : [...kept, ...added];
      assertTurnsInto(old, next);
      const anchors = new Set(keys.filter(() => random() < 0.2));
      assert.deepEqual(
        apply(
          old,
          listOps(old, next, (item) => anchors.has(item.key)),
        ),
        next,
      );
    }
  });

  it('moves a single row by at most one DELETE and one INSERT', () => {
    const random = seeded(5);
    const members = Array.from({ length: 100 }, (_, index) => row(`m${index}`));
    for (let round = 0; round < 100; round += 1) {
      const from = Math.floor(random() * members.length);
      const to = Math.floor(random() * members.length);
      const next = [...members];
      const [moved] = next.splice(from, 1);
      next.splice(to, 0, moved as ListRow);
      assert.ok(assertTurnsInto(members, next).length <= 2);
    }
  });
});
