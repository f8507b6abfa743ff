import assert from 'node:assert/strict';
import { quoteUnsafeIntegers } from '../../../src/domain/losslessJson.js';

describe('quoteUnsafeIntegers', () => {
  it('keeps every digit of an integer snowflake', () => {
    const parsed: unknown = JSON.parse(
      quoteUnsafeIntegers('{"message_id": 1234567890123456789, "fail_if_not_exists": false}'),
    );
    assert.deepEqual(parsed, { message_id: '1234567890123456789', fail_if_not_exists: false });
    assert.deepEqual(JSON.parse(quoteUnsafeIntegers('[9007199254740993,-9007199254740993]')), [
      '9007199254740993',
      '-9007199254740993',
    ]);
  });

  it('leaves safe integers, fractions, exponents and strings alone', () => {
    const text = '{"a":9007199254740991,"b":12345678901234567890.5,"c":1e30,"d":"12345678901234567890","e":[1,-2]}';
    assert.equal(quoteUnsafeIntegers(text), text);
    const escaped = '{"t":"quote \\" 12345678901234567890"}';
    assert.equal(quoteUnsafeIntegers(escaped), escaped);
  });
});
