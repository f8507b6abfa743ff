import assert from 'node:assert/strict';
import { attachmentContentType, safeFilename } from '../../../src/http/attachmentFiles.js';
import { solidPng } from '../../../src/http/solidPng.js';

describe('attachment files', () => {
  it('turns a filename into one safe path segment, keeping a long name’s extension', () => {
    assert.equal(safeFilename('my file (1).txt'), 'my_file__1_.txt');
    assert.equal(safeFilename('../../etc/passwd'), '.._.._etc_passwd');
    assert.equal(safeFilename('..'), 'unknown');
    assert.equal(safeFilename(''), 'unknown');
    const long = safeFilename(`${'a'.repeat(300)}.png`);
    assert.equal(long.length, 128);
    assert.ok(long.endsWith('.png'));
  });

  it('types an upload by its image bytes, then its declared type, then its extension', () => {
    const png = solidPng(1, 1, { r: 0, g: 0, b: 0 });
    assert.equal(attachmentContentType(png, 'image/jpg', 'x.jpg'), 'image/png');
    assert.equal(attachmentContentType(Buffer.from('{}'), 'application/json', 'x.bin'), 'application/json');
    assert.equal(
      attachmentContentType(Buffer.from('hi'), 'application/octet-stream', 'a.TXT'),
      'text/plain; charset=utf-8',
    );
    assert.equal(attachmentContentType(Buffer.from('hi'), '', 'noext'), 'application/octet-stream');
  });
});
