import assert from 'node:assert/strict';
import { dataUriBytes, uploadKind } from '../../../src/domain/imageKind.js';
import { solidPng } from '../../../src/http/solidPng.js';

/** A PNG chunk with a zero CRC (uploadKind reads only types and lengths). */
function chunk(type: string, data = Buffer.alloc(0)): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  return Buffer.concat([length, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]);
}

describe('uploadKind', () => {
  const png = solidPng(2, 2, { r: 0, g: 0, b: 0 });

  it('recognises PNG, APNG, JPEG, GIF, WebP, AVIF and Lottie JSON by their bytes', () => {
    assert.equal(uploadKind(png), 'png');
    const signature = png.subarray(0, 8);
    const apng = Buffer.concat([
      signature,
      chunk('IHDR', Buffer.alloc(13)),
      chunk('acTL', Buffer.alloc(8)),
      chunk('IDAT'),
    ]);
    assert.equal(uploadKind(apng), 'apng');
    assert.equal(uploadKind(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0])), 'jpeg');
    assert.equal(uploadKind(Buffer.from('GIF89a\x01\x00', 'latin1')), 'gif');
    assert.equal(uploadKind(Buffer.from('RIFF\x00\x00\x00\x00WEBPVP8 ', 'latin1')), 'webp');
    assert.equal(uploadKind(Buffer.from('\x00\x00\x00\x1cftypavif', 'latin1')), 'avif');
    assert.equal(uploadKind(Buffer.from('  {"v":"5.5.2","layers":[]}')), 'lottie');
  });

  it('answers undefined for anything else', () => {
    assert.equal(uploadKind(Buffer.from('hello world')), undefined);
    assert.equal(uploadKind(Buffer.alloc(0)), undefined);
  });
});

describe('dataUriBytes', () => {
  it('decodes a base64 data URI and refuses other strings', () => {
    assert.deepEqual(dataUriBytes('data:image/png;base64,AQID'), Buffer.from([1, 2, 3]));
    assert.equal(dataUriBytes('https://example.com/a.png'), undefined);
    assert.equal(dataUriBytes('data:image/png,plain'), undefined);
  });
});
