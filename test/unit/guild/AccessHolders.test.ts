import assert from 'node:assert/strict';
import { AccessHolders } from '../../../actors/guild/AccessHolders.js';

describe('AccessHolders', () => {
  it('names the channels holding a user, and forgets that user there only', () => {
    const holders = new AccessHolders();
    holders.note('c1', 'u1');
    holders.note('c1', 'u2');
    holders.note('c2', 'u2');
    assert.deepEqual(holders.takeUser('u1'), ['c1']);
    assert.deepEqual(holders.takeUser('u1'), [], 'told once');
    assert.deepEqual(holders.takeUser('u2').sort(), ['c1', 'c2']);
    assert.equal(holders.size, 0, 'a channel holding nobody is forgotten');
  });

  it('forgets every channel once all are told', () => {
    const holders = new AccessHolders();
    holders.note('c1', 'u1');
    holders.note('c2', 'u1');
    assert.deepEqual(holders.takeAll().sort(), ['c1', 'c2']);
    assert.deepEqual(holders.takeAll(), []);
  });

  it('forgets a channel told (or deleted) on its own', () => {
    const holders = new AccessHolders();
    holders.note('c1', 'u1');
    assert.equal(holders.takeChannel('c1'), true);
    assert.equal(holders.takeChannel('c1'), false);
    assert.deepEqual(holders.takeUser('u1'), []);
  });

  it('tells a channel noted with very many users of every user change, and keeps it noted', () => {
    const holders = new AccessHolders();
    for (let i = 0; i <= 1_000; i += 1) holders.note('busy', `u${i}`);
    assert.deepEqual(holders.takeUser('someone-else'), ['busy']);
    assert.deepEqual(holders.takeUser('u1'), ['busy']);
    assert.deepEqual(holders.takeAll(), ['busy']);
  });
});
