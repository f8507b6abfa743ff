import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { BlobStore } from '../../src/domain/BlobStore.js';

/** Larger than one Cassandra chunk (256 KiB) and not a multiple of it, so the last chunk is partial. */
const MULTI_CHUNK_BYTES = 600 * 1024 + 17;

/**
 * The BlobStore contract, run unchanged against the file store (unit/) and Cassandra (integration/).
 * Keys are fresh per test, so a backend may be shared between tests.
 */
export function blobStoreContract(create: () => Promise<BlobStore>): void {
  let store: BlobStore;
  const run = randomBytes(4).toString('hex');
  let counter = 0;
  const aKey = (name = 'file.bin'): string => `attachments/${run}/${(counter += 1)}/${name}`;

  beforeEach(async () => {
    store = await create();
  });

  it('returns the bytes and content type that were put', async () => {
    const key = aKey('notes.txt');
    await store.put(key, Buffer.from('hello\nworld\n'), 'text/plain; charset=utf-8');
    assert.deepEqual(await store.get(key), {
      data: Buffer.from('hello\nworld\n'),
      contentType: 'text/plain; charset=utf-8',
    });
  });

  it('keeps binary content larger than one chunk byte for byte', async () => {
    const key = aKey();
    const data = randomBytes(MULTI_CHUNK_BYTES);
    await store.put(key, data, 'application/octet-stream');
    const blob = await store.get(key);
    assert.equal(blob?.data.length, data.length);
    assert.ok(blob.data.equals(data), 'the bytes read back differ from those written');
  });

  it('keeps an empty blob as an empty blob, not a missing one', async () => {
    const key = aKey('empty.txt');
    await store.put(key, Buffer.alloc(0), 'text/plain');
    assert.deepEqual(await store.get(key), { data: Buffer.alloc(0), contentType: 'text/plain' });
  });

  it('answers undefined for a key never written', async () => {
    assert.equal(await store.get(aKey()), undefined);
  });

  it('forgets a deleted blob, and deleting a missing key is harmless', async () => {
    const key = aKey();
    await store.put(key, Buffer.from([1, 2, 3]), 'application/octet-stream');
    await store.delete(key);
    assert.equal(await store.get(key), undefined);
    await store.delete(key);
    await store.delete(aKey());
  });

  it('replaces a blob put again under the same key, even by a shorter one', async () => {
    const key = aKey();
    await store.put(key, randomBytes(MULTI_CHUNK_BYTES), 'application/octet-stream');
    await store.put(key, Buffer.from('short'), 'text/plain');
    assert.deepEqual(await store.get(key), { data: Buffer.from('short'), contentType: 'text/plain' });
  });

  it('keeps keys apart that differ only in their last segment or in case', async () => {
    const folder = aKey('x').slice(0, -2);
    await store.put(`${folder}/a.txt`, Buffer.from('lower'), 'text/plain');
    await store.put(`${folder}/A.txt`, Buffer.from('upper'), 'text/plain');
    await store.put(`${folder}/é ü%.txt`, Buffer.from('unicode'), 'text/plain');
    assert.equal((await store.get(`${folder}/a.txt`))?.data.toString(), 'lower');
    assert.equal((await store.get(`${folder}/é ü%.txt`))?.data.toString(), 'unicode');
    // Case-insensitive file systems (macOS) fold A.txt onto a.txt; Linux and Cassandra keep both.
    if (process.platform === 'linux') assert.equal((await store.get(`${folder}/A.txt`))?.data.toString(), 'upper');
  });

  it('refuses a content type that could not be sent as a header', async () => {
    await assert.rejects(store.put(aKey(), Buffer.from('x'), 'text/plain\r\nX-Evil: 1'), RangeError);
  });
}
