import assert from 'node:assert/strict';
import { isJsonObject, parseJsonObject } from '../../../src/domain/jsonValue.js';

describe('jsonValue', () => {
  it('narrows to JSON objects only', () => {
    assert.equal(isJsonObject({}), true);
    assert.equal(isJsonObject([]), false);
    assert.equal(isJsonObject(null), false);
    assert.deepEqual(parseJsonObject('[1]'), {});
    assert.deepEqual(parseJsonObject('{"a":1}'), { a: 1 });
  });
});
