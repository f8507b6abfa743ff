import assert from 'node:assert/strict';
import { wireTypesShapes } from './wireTypesShapes.js';

describe('wireTypes', () => {
  it('builds the JSON Schema shapes the validator relies on', () => {
    for (const [name, [actual, expected]] of Object.entries(wireTypesShapes())) {
      assert.deepEqual(JSON.parse(JSON.stringify(actual)), JSON.parse(JSON.stringify(expected)), name);
    }
  });
});
