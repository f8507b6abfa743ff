import assert from 'node:assert/strict';
import { PayloadBudget } from '../../../src/gateway/PayloadBudget.js';

describe('PayloadBudget', () => {
  it('allows the limit within a window and refuses the next one', () => {
    const budget = new PayloadBudget(3, 1_000);
    assert.deepEqual(
      [1, 2, 3, 4].map(() => budget.take(100)),
      [true, true, true, false],
    );
  });

  it('starts afresh in the next window', () => {
    const budget = new PayloadBudget(1, 1_000);
    assert.equal(budget.take(0), true);
    assert.equal(budget.take(999), false);
    assert.equal(budget.take(1_000), true);
  });
});
