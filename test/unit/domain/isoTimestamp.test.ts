import assert from 'node:assert/strict';
import { isoTimestamp } from '../../../src/domain/isoTimestamp.js';

describe('isoTimestamp', () => {
  it('writes what Date#toISOString writes, within a second and across seconds, days and years', () => {
    const starts = [0, 1_764_159_693_000, 1_764_201_599_990, 1_798_761_599_995, -1_500, 253_402_300_799_000];
    for (const start of starts) {
      for (let ms = start; ms < start + 1_020; ms += 1)
        assert.equal(isoTimestamp(ms), new Date(ms).toISOString(), String(ms));
    }
  });

  it('leaves a time that is not a whole number of ms to Date', () => {
    assert.equal(isoTimestamp(1_764_159_693_000.7), new Date(1_764_159_693_000.7).toISOString());
    assert.throws(() => isoTimestamp(Number.NaN), RangeError);
  });
});
