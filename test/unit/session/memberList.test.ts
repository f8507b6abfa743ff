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
});
