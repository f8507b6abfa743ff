import assert from 'node:assert/strict';
import { parseConnectionQuery } from '../../../src/gateway/connectionQuery.js';

describe('parseConnectionQuery', () => {
  it('reads v, encoding and compress', () => {
    assert.deepEqual(parseConnectionQuery('/?v=9&encoding=json&compress=zlib-stream'), {
      version: 9,
      encoding: 'json',
      compress: 'zlib-stream',
    });
    assert.deepEqual(parseConnectionQuery('/?v=10&encoding=etf&compress=zstd-stream'), {
      version: 10,
      encoding: 'etf',
      compress: 'zstd-stream',
    });
  });

  it('defaults to v10 JSON without compression, on any path', () => {
    const plain = { version: 10, encoding: 'json', compress: 'none' };
    assert.deepEqual(parseConnectionQuery('/'), plain);
    assert.deepEqual(parseConnectionQuery('/gateway?compress=brotli'), plain);
    assert.deepEqual(parseConnectionQuery(undefined), plain);
  });

  it('refuses other versions with 4012', () => {
    for (const v of ['8', '6', '11', 'x']) assert.deepEqual(parseConnectionQuery(`/?v=${v}`), { closeCode: 4012 });
  });

  it('refuses encodings other than json and etf with 4002', () => {
    for (const encoding of ['xml', 'ETF', '']) {
      assert.deepEqual(parseConnectionQuery(`/?v=10&encoding=${encoding}`), { closeCode: 4002 });
    }
  });
});
