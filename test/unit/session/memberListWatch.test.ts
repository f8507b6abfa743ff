import assert from 'node:assert/strict';
import type { DispatchEvent } from '../../../proto/gen/chorus/v1/common.js';
import { memberList, type ListRange, type MemberList } from '../../../actors/session/memberList.js';
import { MemberListWatch } from '../../../actors/session/memberListWatch.js';

interface Update {
  groups: { id: string; count: number }[];
  online_count: number;
  member_count: number;
  ops: { op: string; index?: number; range?: [number, number]; item?: unknown; items?: unknown[] }[];
}

/** The client's copy of the list, kept as Discord's client keeps it: ops in order, then setGroups. */
class ClientList {
  rows: unknown[] = [];
  apply(json: string): Update {
    const update = JSON.parse(json) as Update;
    for (const op of update.ops) {
      const index = op.index ?? 0;
      if (op.op === 'SYNC')
        (op.items ?? []).forEach((item, offset) => (this.rows[(op.range?.[0] ?? 0) + offset] = item));
      else if (op.op === 'INSERT') this.rows.splice(index, 0, op.item);
      else if (op.op === 'UPDATE') this.rows[index] = op.item;
      else if (op.op === 'DELETE') this.rows.splice(index, 1);
    }
    this.rows.length = update.groups.reduce((sum, group) => sum + group.count + 1, 0);
    return update;
  }
  window([first, last]: ListRange): unknown[] {
    return this.rows.slice(first, last + 1);
  }
}

const member = (id: string): { user: { id: string }; roles: string[] } => ({ user: { id }, roles: [] });
const presence = (id: string, status: string) => ({ user: { id }, status, activities: [], client_status: {} });

/** A list of `size` members where those in `online` have the status given. */
function listOf(size: number, online: ReadonlyMap<string, string>): MemberList {
  const members = Array.from({ length: size }, (_, index) => member(`u${index}`));
  const presences = new Map([...online].map(([id, status]) => [id, presence(id, status)]));
  return memberList('nobody', members, presences);
}

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('MemberListWatch', () => {
  it('answers op 14 with a SYNC and moves a member coming online by DELETE, INSERT and header UPDATEs', () => {
    const watch = new MemberListWatch();
    const client = new ClientList();
    const first = client.apply(watch.sync('g', [[0, 99]], listOf(4, new Map([['u1', 'online']]))));
    assert.deepEqual(
      first.ops.map((op) => op.op),
      ['SYNC'],
    );

    const moved = client.apply(
      watch.move(
        'g',
        listOf(
          4,
          new Map([
            ['u1', 'online'],
            ['u3', 'idle'],
          ]),
        ),
      ) ?? '{}',
    );
    assert.deepEqual(
      moved.ops.map((op) => [op.op, op.index]),
      [
        ['DELETE', 5],
        ['UPDATE', 0],
        ['INSERT', 2],
        ['UPDATE', 3],
      ],
    );
    assert.equal(moved.online_count, 2);
    assert.deepEqual(moved.groups, [
      { id: 'online', count: 2 },
      { id: 'offline', count: 2 },
    ]);
  });

  it('sends an UPDATE alone when a member changes status within the online group', () => {
    const watch = new MemberListWatch();
    watch.sync('g', [[0, 99]], listOf(3, new Map([['u0', 'online']])));
    const update = JSON.parse(watch.move('g', listOf(3, new Map([['u0', 'dnd']]))) ?? '{}') as Update;
    assert.deepEqual(
      update.ops.map((op) => [op.op, op.index]),
      [['UPDATE', 1]],
    );
  });

  it('sends nothing when the rows and counts it showed did not change, and nothing for lists it does not follow', () => {
    const watch = new MemberListWatch();
    watch.sync('g', [[0, 99]], listOf(3, new Map()));
    assert.equal(watch.move('g', listOf(3, new Map())), undefined);
    assert.equal(watch.move('other', listOf(3, new Map())), undefined);
  });

  it('keeps every watched window equal to a fresh SYNC through random comings and goings', () => {
    const random = seeded(3);
    const windowSets: ListRange[][] = [
      [[0, 99]],
      [[0, 9]],
      [
        [0, 9],
        [20, 29],
      ],
      [
        [0, 4],
        [10, 14],
        [30, 39],
      ],
      [[5, 15]],
    ];
    const statuses = ['online', 'idle', 'dnd'];
    let syncs = 0;
    let moves = 0;
    for (const windows of windowSets) {
      const watch = new MemberListWatch();
      const client = new ClientList();
      let size = 1 + Math.floor(random() * 30);
      let online = new Map<string, string>();
      client.apply(watch.sync('g', windows, listOf(size, online)));
      for (let step = 0; step < 300; step += 1) {
        online = new Map(online);
        const id = `u${Math.floor(random() * size)}`;
        const roll = random();
        if (roll < 0.4) online.set(id, statuses[Math.floor(random() * 3)] ?? 'online');
        else if (roll < 0.7) online.delete(id);
        else if (roll < 0.85) size += 1 + Math.floor(random() * 3);
        else {
          const gone = Math.min(size, 1 + Math.floor(random() * 3));
          for (let count = 0; count < gone; count += 1) online.delete(`u${size - 1 - count}`);
          size -= gone;
        }
        const list = listOf(size, online);
        const json = watch.move('g', list);
        if (json === undefined) continue;
        const update = client.apply(json);
        moves += 1;
        if (update.ops.some((op) => op.op === 'SYNC')) syncs += 1;
        for (const window of windows) {
          assert.deepEqual(client.window(window), list.items(window[0], window[1]), `step ${step}`);
        }
      }
    }
    assert.ok(syncs * 10 < moves, `most moves go by row ops (${syncs} SYNCs in ${moves} updates)`);
  });

  it('tells which watched guild a list-moving event is about', () => {
    const watch = new MemberListWatch();
    watch.sync('g', [[0, 99]], listOf(1, new Map()));
    const event = (name: string, guildId: string): DispatchEvent =>
      ({ event: name, dataJson: JSON.stringify({ guild_id: guildId }) }) as DispatchEvent;
    assert.equal(watch.movedBy(event('PRESENCE_UPDATE', 'g')), 'g');
    assert.equal(watch.movedBy(event('GUILD_MEMBER_REMOVE', 'g')), 'g');
    assert.equal(watch.movedBy(event('GUILD_MEMBER_UPDATE', 'g')), 'g');
    assert.equal(watch.movedBy(event('MESSAGE_CREATE', 'g')), undefined);
    assert.equal(watch.movedBy(event('PRESENCE_UPDATE', 'other')), undefined);
    watch.forget('g');
    assert.equal(watch.movedBy(event('PRESENCE_UPDATE', 'g')), undefined);
  });
});
