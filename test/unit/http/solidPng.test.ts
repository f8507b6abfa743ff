import assert from 'node:assert/strict';
import { inflateSync } from 'node:zlib';
import { uploadKind } from '../../../src/domain/imageKind.js';
import { solidPng } from '../../../src/http/solidPng.js';

describe('solidPng', () => {
  it('builds a PNG whose header and pixel data match the requested size', () => {
    const png = solidPng(5, 3, { r: 200, g: 100, b: 50 });
    assert.equal(uploadKind(png), 'png');
    assert.equal(png.readUInt32BE(16), 5);
    assert.equal(png.readUInt32BE(20), 3);
    const idatAt = png.indexOf('IDAT', 0, 'latin1');
    const length = png.readUInt32BE(idatAt - 4);
    const pixels = inflateSync(png.subarray(idatAt + 4, idatAt + 4 + length));
    assert.equal(pixels.length, 3 * (1 + 5 * 3));
    // The last pixel of a row is the full colour; the first belongs to the darker band.
    assert.deepEqual([...pixels.subarray(1 + 4 * 3, 1 + 5 * 3)], [200, 100, 50]);
    assert.deepEqual([...pixels.subarray(1, 4)], [150, 75, 38]);
  });
});
