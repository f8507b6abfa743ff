import assert from 'node:assert/strict';
import { parseConnectionQuery } from '../../../src/gateway/connectionQuery.js';

describe('parseConnectionQuery', () => {
  it('reads v, encoding and compress', () => {
    assert.deepEqual(parseConnectionQuery('/?v=9&encoding=json&compress=zlib-stream'), {
      version: 9,
      zlibStream: true,
    });
  });

  it('defaults to v10 JSON without compression, on any path', () => {
    assert.deepEqual(parseConnectionQuery('/'), { version: 10, zlibStream: false });
    assert.deepEqual(parseConnectionQuery('/gateway?compress=zstd-stream'), { version: 10, zlibStream: false });
    assert.deepEqual(parseConnectionQuery(undefined), { version: 10, zlibStream: false });
  });

  it('refuses other versions with 4012', () => {
    for (const v of ['8', '6', '11', 'x']) assert.deepEqual(parseConnectionQuery(`/?v=${v}`), { closeCode: 4012 });
  });

  it('refuses encodings other than json with 4002', () => {
    assert.deepEqual(parseConnectionQuery('/?v=10&encoding=etf'), { closeCode: 4002 });
  });
});
