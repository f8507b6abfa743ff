import assert from 'node:assert/strict';
import { memberListSync, requestedRanges } from '../../../actors/session/memberList.js';

const member = (id: string): { user: { id: string }; roles: string[] } => ({ user: { id }, roles: [] });

describe('memberList', () => {
  it('collects the ranges of every channel once, clamped', () => {
    const ranges = requestedRanges({
      '1': [[0, 99]],
      '2': [
        [0, 99],
        [100, 5000],
      ],
      '3': 'junk',
    });
    assert.deepEqual(ranges, [
      [0, 99],
      [100, 999],
    ]);
  });

  it('ignores malformed ranges', () => {
    assert.deepEqual(requestedRanges({ '1': [[5, 1], [0], ['a', 'b']] }), []);
    assert.deepEqual(requestedRanges(undefined), []);
  });

  it('builds a SYNC with the online group (the requester) before the offline one', () => {
    const json = memberListSync('9', '2', [member('1'), member('2'), member('3')], [[0, 99]]);
    const update = JSON.parse(json) as {
      id: string;
      member_count: number;
      online_count: number;
      groups: { id: string; count: number }[];
      ops: { op: string; range: number[]; items: Record<string, { id?: string; user?: { id: string } }>[] }[];
    };
    assert.equal(update.id, 'everyone');
    assert.equal(update.member_count, 3);
    assert.equal(update.online_count, 1);
    assert.deepEqual(update.groups, [
      { id: 'online', count: 1 },
      { id: 'offline', count: 2 },
    ]);
    const items = update.ops[0]?.items ?? [];
    assert.equal(update.ops[0]?.op, 'SYNC');
    assert.deepEqual(
      items.map((item) => item['group']?.id ?? item['member']?.user?.id),
      ['online', '2', 'offline', '1', '3'],
    );
  });

  it('puts members with a presence in the online group, with their status, before the offline ones', () => {
    const presences = new Map([
      ['3', { user: { id: '3' }, status: 'dnd', activities: [], client_status: { web: 'dnd' } }],
    ]);
    const json = memberListSync('9', '2', [member('1'), member('2'), member('3')], [[0, 99]], presences);
    const update = JSON.parse(json) as {
      online_count: number;
      groups: { id: string; count: number }[];
      ops: { items: { member?: { user: { id: string }; presence: { status: string } } }[] }[];
    };
    assert.equal(update.online_count, 2);
    assert.deepEqual(update.groups, [
      { id: 'online', count: 2 },
      { id: 'offline', count: 1 },
    ]);
    const rows = (update.ops[0]?.items ?? []).flatMap((item) => (item.member ? [item.member] : []));
    assert.deepEqual(
      rows.map((row) => [row.user.id, row.presence.status]),
      [
        ['2', 'online'],
        ['3', 'dnd'],
        ['1', 'offline'],
      ],
    );
  });
});
