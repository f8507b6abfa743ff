import assert from 'node:assert/strict';
import {
  compareSnowflakes,
  isSnowflake,
  newerSnowflake,
  SnowflakeGenerator,
  snowflakeAt,
  snowflakeTimestampMs,
} from '../../../src/domain/snowflake.js';

describe('SnowflakeGenerator', () => {
  it('encodes the millisecond timestamp in the top 42 bits, as Discord does', () => {
    const ids = new SnowflakeGenerator(5, () => 1_700_000_000_123);
    assert.equal(snowflakeTimestampMs(ids.next()), 1_700_000_000_123);
  });

  it('puts the generator id in bits 12..21', () => {
    const id = BigInt(new SnowflakeGenerator(0b1010101010, () => 1_700_000_000_000).next());
    assert.equal((id >> 12n) & 0x3ffn, 0b1010101010n);
  });

  it('returns strictly increasing ids within one millisecond and across 4096 of them', () => {
    const ids = new SnowflakeGenerator(1, () => 1_700_000_000_000);
    let previous = ids.next();
    for (let index = 0; index < 5_000; index += 1) {
      const next = ids.next();
      assert.ok(compareSnowflakes(next, previous) > 0, `${next} is not after ${previous}`);
      previous = next;
    }
  });

  it('stays monotonic when the clock steps back', () => {
    let now = 1_700_000_000_000;
    const ids = new SnowflakeGenerator(1, () => now);
    const first = ids.next();
    now -= 10_000;
    assert.ok(compareSnowflakes(ids.next(), first) > 0);
  });

  it('rejects generator ids outside 0..1023', () => {
    assert.throws(() => new SnowflakeGenerator(1024), RangeError);
  });
});

describe('snowflake helpers', () => {
  it('recognises decimal 64-bit ids only', () => {
    assert.equal(isSnowflake('175928847299117063'), true);
    assert.equal(isSnowflake('18446744073709551616'), false);
    assert.equal(isSnowflake('12a'), false);
    assert.equal(isSnowflake(123), false);
  });

  it('picks the newer of two ids by number, either when the other is null, null when both are', () => {
    assert.equal(newerSnowflake('999', '1000'), '1000');
    assert.equal(newerSnowflake('1000', '999'), '1000');
    assert.equal(newerSnowflake(null, '5'), '5');
    assert.equal(newerSnowflake('5', null), '5');
    assert.equal(newerSnowflake(null, null), null);
  });

  it('orders ids of different lengths numerically', () => {
    assert.ok(compareSnowflakes('99', '100') < 0);
  });

  it('builds a time cursor that sorts before every id of that millisecond', () => {
    const ids = new SnowflakeGenerator(3, () => 1_700_000_000_000);
    assert.ok(compareSnowflakes(snowflakeAt(1_700_000_000_000), ids.next()) < 0);
  });
});
