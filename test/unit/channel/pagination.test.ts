import assert from 'node:assert/strict';
import { clampLimit, joinAround, planPage } from '../../../actors/channel/pagination.js';

describe('pagination', () => {
  const none = { limit: 0, before: '', after: '', around: '' };

  it('defaults the limit to 50 and caps it at 100', () => {
    assert.equal(clampLimit(0), 50);
    assert.equal(clampLimit(500), 100);
    assert.equal(clampLimit(7), 7);
  });

  it('reads the newest page when no cursor is given', () => {
    assert.deepEqual(planPage(none), { kind: 'single', page: { limit: 50 } });
  });

  it('passes before and after through', () => {
    assert.deepEqual(planPage({ ...none, limit: 10, before: '100', after: '5' }), {
      kind: 'single',
      page: { limit: 10, before: '100', after: '5' },
    });
  });

  it('splits an around page into a newer half including the message and an older half', () => {
    assert.deepEqual(planPage({ ...none, limit: 5, around: '100', before: '1' }), {
      kind: 'around',
      newer: { limit: 3, after: '99' },
      older: { limit: 2, before: '100' },
    });
  });

  it('reads only the message itself for around with limit 1', () => {
    const plan = planPage({ ...none, limit: 1, around: '100' });
    assert.equal(plan.kind, 'around');
    if (plan.kind === 'around') {
      assert.equal(plan.newer.limit, 1);
      assert.equal(plan.older.limit, 0);
    }
  });

  it('joins around halves newest first', () => {
    assert.deepEqual(joinAround(['5', '4'], ['3', '2']), ['5', '4', '3', '2']);
  });
});
