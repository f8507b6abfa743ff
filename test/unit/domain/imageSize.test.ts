import assert from 'node:assert/strict';
import { imageSize } from '../../../src/domain/imageSize.js';
import { solidPng } from '../../../src/http/solidPng.js';

/** A JPEG header: SOI, an APP0 segment, optional fill bytes, then a baseline frame header (SOF0). */
function jpegHeader(width: number, height: number, fill = 0): Buffer {
  const app0 = Buffer.concat([Buffer.from([0xff, 0xe0, 0x00, 0x10]), Buffer.alloc(14)]);
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 3]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, Buffer.alloc(fill, 0xff), sof, Buffer.alloc(12)]);
}

describe('imageSize', () => {
  it('reads PNG dimensions from IHDR', () => {
    assert.deepEqual(imageSize(solidPng(3, 5, { r: 1, g: 2, b: 3 })), { width: 3, height: 5 });
  });

  it('reads GIF dimensions from the logical screen descriptor', () => {
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
    assert.deepEqual(imageSize(gif), { width: 1, height: 1 });
  });

  it('reads JPEG dimensions from the first frame header, past other segments and fill bytes', () => {
    assert.deepEqual(imageSize(jpegHeader(640, 480)), { width: 640, height: 480 });
    assert.deepEqual(imageSize(jpegHeader(1, 300, 3)), { width: 1, height: 300 });
  });

  it('answers undefined for other files and for truncated images', () => {
    assert.equal(imageSize(Buffer.from('plain text')), undefined);
    assert.equal(imageSize(jpegHeader(10, 10).subarray(0, 12)), undefined);
    assert.equal(imageSize(solidPng(3, 5, { r: 1, g: 2, b: 3 }).subarray(0, 20)), undefined);
  });
});
