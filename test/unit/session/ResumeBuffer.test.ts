import assert from 'node:assert/strict';
import { ResumeBuffer } from '../../../actors/session/ResumeBuffer.js';

function filled(capacity: number, from: number, to: number): ResumeBuffer {
  const buffer = new ResumeBuffer(capacity);
  buffer.setFloor(from - 1);
  for (let seq = from; seq <= to; seq += 1) buffer.append(seq, `f${seq}`);
  return buffer;
}

describe('ResumeBuffer', () => {
  it('returns every frame after the given sequence, in order', () => {
    assert.deepEqual(filled(10, 2, 6).framesAfter(3, 6), ['f4', 'f5', 'f6']);
  });

  it('returns nothing for a client that saw everything', () => {
    assert.deepEqual(filled(10, 2, 6).framesAfter(6, 6), []);
  });

  it('refuses a sequence newer than the last one sent', () => {
    assert.equal(filled(10, 2, 6).framesAfter(7, 6), undefined);
  });

  it('refuses a sequence below the floor (a client that never saw READY)', () => {
    assert.equal(filled(10, 2, 6).framesAfter(0, 6), undefined);
    assert.deepEqual(filled(10, 2, 6).framesAfter(1, 6), ['f2', 'f3', 'f4', 'f5', 'f6']);
  });

  it('keeps only the newest frames and refuses a client behind the evicted ones', () => {
    const buffer = filled(3, 2, 10);
    assert.equal(buffer.size, 3);
    assert.deepEqual(buffer.framesAfter(7, 10), ['f8', 'f9', 'f10']);
    assert.equal(buffer.framesAfter(6, 10), undefined);
  });

  it('skips sequence numbers that were never buffered (RESUMED)', () => {
    const buffer = filled(10, 2, 4);
    buffer.append(6, 'f6');
    assert.deepEqual(buffer.framesAfter(5, 6), ['f6']);
    assert.deepEqual(buffer.framesAfter(3, 6), ['f4', 'f6']);
  });

  it('with no room keeps nothing and moves the floor along', () => {
    const buffer = filled(0, 2, 4);
    assert.deepEqual(buffer.framesAfter(4, 4), []);
    assert.equal(buffer.framesAfter(3, 4), undefined);
  });

  it('refuses a sequence that is not an integer', () => {
    assert.equal(filled(10, 2, 6).framesAfter(Number.NaN, 6), undefined);
  });
});
