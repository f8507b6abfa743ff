import assert from 'node:assert/strict';
import { MAX_JSON_DEPTH, MAX_JSON_NODES, jsonBoundsError } from '../../../src/domain/jsonBounds.js';

/** `{"a":{"a":...}}` nested `levels` objects deep, as text. */
const nested = (levels: number): string => `${'{"a":'.repeat(levels)}"leaf"${'}'.repeat(levels)}`;

function codeOf(text: string): string | undefined {
  const tree = jsonBoundsError(text)?.fieldErrors as { _errors?: { code: string }[] } | undefined;
  return tree?._errors?.[0]?.code;
}

describe('jsonBoundsError', () => {
  it('accepts bodies up to the depth limit and refuses one level more', () => {
    assert.equal(codeOf(nested(MAX_JSON_DEPTH)), undefined);
    assert.equal(codeOf(nested(MAX_JSON_DEPTH + 1)), 'JSON_TOO_DEEP');
    assert.equal(codeOf(`{"unknown_field":${nested(10_000)}}`), 'JSON_TOO_DEEP');
    assert.equal(codeOf(`[${'['.repeat(40)}`), 'JSON_TOO_DEEP');
  });

  it('accepts bodies up to the value limit and refuses more, wherever the values are', () => {
    assert.equal(codeOf(JSON.stringify(Array<number>(MAX_JSON_NODES - 2).fill(1))), undefined);
    assert.equal(codeOf(JSON.stringify(Array<number>(MAX_JSON_NODES).fill(1))), 'JSON_TOO_LARGE');
    assert.equal(codeOf(JSON.stringify({ sticker_ids: Array<number>(450_000).fill(1) })), 'JSON_TOO_LARGE');
    const wide = Object.fromEntries(Array.from({ length: 300 }, (_, n) => [`k${n}`, Array<number>(200).fill(n)]));
    assert.equal(codeOf(JSON.stringify(wide)), 'JSON_TOO_LARGE');
  });

  it('does not count brackets, commas and escaped quotes inside strings', () => {
    const text = JSON.stringify({ content: `${'[{,'.repeat(60_000)}\\"],` });
    assert.equal(codeOf(text), undefined);
    assert.equal(codeOf(JSON.stringify(['a"[[[', 'b\\', ',,,'])), undefined);
  });
});
