import assert from 'node:assert/strict';
import type { BufferedFrame } from '../../../actors/runtime/ports/sessionStore.js';
import { ResumeBuffer } from '../../../actors/session/ResumeBuffer.js';

const kept = (seq: number, data: string): BufferedFrame => ({ seq, event: 'MESSAGE_CREATE', data });
/** The payloads of the frames kept after `seq`. */
const dataAfter = (buffer: ResumeBuffer, seq: number, lastSeq: number): string[] | undefined =>
  buffer.framesAfter(seq, lastSeq)?.map((frame) => frame.data);

function filled(capacity: number, from: number, to: number): ResumeBuffer {
  const buffer = new ResumeBuffer(capacity);
  buffer.setFloor(from - 1);
  for (let seq = from; seq <= to; seq += 1) buffer.append(kept(seq, `f${seq}`));
  return buffer;
}

describe('ResumeBuffer', () => {
  it('returns every frame after the given sequence, in order', () => {
    assert.deepEqual(dataAfter(filled(10, 2, 6), 3, 6), ['f4', 'f5', 'f6']);
  });

  it('returns nothing for a client that saw everything', () => {
    assert.deepEqual(dataAfter(filled(10, 2, 6), 6, 6), []);
  });

  it('refuses a sequence newer than the last one sent', () => {
    assert.equal(dataAfter(filled(10, 2, 6), 7, 6), undefined);
  });

  it('refuses a sequence below the floor (a client that never saw READY)', () => {
    assert.equal(dataAfter(filled(10, 2, 6), 0, 6), undefined);
    assert.deepEqual(dataAfter(filled(10, 2, 6), 1, 6), ['f2', 'f3', 'f4', 'f5', 'f6']);
  });

  it('keeps only the newest frames and refuses a client behind the evicted ones', () => {
    const buffer = filled(3, 2, 10);
    assert.equal(buffer.size, 3);
    assert.deepEqual(dataAfter(buffer, 7, 10), ['f8', 'f9', 'f10']);
    assert.equal(dataAfter(buffer, 6, 10), undefined);
  });

  it('skips sequence numbers that were never buffered (RESUMED)', () => {
    const buffer = filled(10, 2, 4);
    buffer.append(kept(6, 'f6'));
    assert.deepEqual(dataAfter(buffer, 5, 6), ['f6']);
    assert.deepEqual(dataAfter(buffer, 3, 6), ['f4', 'f6']);
  });

  it('with no room keeps nothing and moves the floor along', () => {
    const buffer = filled(0, 2, 4);
    assert.deepEqual(dataAfter(buffer, 4, 4), []);
    assert.equal(dataAfter(buffer, 3, 4), undefined);
  });

  it('refuses a sequence that is not an integer', () => {
    assert.equal(dataAfter(filled(10, 2, 6), Number.NaN, 6), undefined);
  });

  it('keeps at most its byte bound of frames, evicting the oldest and moving the floor past them', () => {
    const buffer = new ResumeBuffer(100, 10);
    buffer.setFloor(1);
    for (let seq = 2; seq <= 6; seq += 1) buffer.append(kept(seq, 'xxxx')); // 4 units each: 2 fit in 10
    assert.equal(buffer.size, 2);
    assert.equal(buffer.bytes, 8);
    assert.equal(buffer.floor, 4);
    assert.deepEqual(dataAfter(buffer, 4, 6), ['xxxx', 'xxxx']);
    assert.equal(dataAfter(buffer, 3, 6), undefined);
  });

  it('keeps no frame larger than its byte bound, and none before it either', () => {
    const buffer = new ResumeBuffer(100, 10);
    buffer.setFloor(1);
    buffer.append(kept(2, 'ab'));
    buffer.append(kept(3, 'x'.repeat(11)));
    assert.equal(buffer.size, 0);
    assert.equal(buffer.bytes, 0);
    assert.equal(dataAfter(buffer, 2, 3), undefined);
    assert.deepEqual(dataAfter(buffer, 3, 3), []);
    buffer.append(kept(4, 'cd'));
    assert.deepEqual(dataAfter(buffer, 3, 4), ['cd']);
  });

  it('still replays in order after thousands of evictions (compacted slots)', () => {
    const buffer = filled(50, 2, 5_000);
    assert.equal(buffer.size, 50);
    assert.equal(buffer.floor, 4_950);
    assert.deepEqual(dataAfter(buffer, 4_997, 5_000), ['f4998', 'f4999', 'f5000']);
    assert.equal(dataAfter(buffer, 4_949, 5_000), undefined);
  });
});
