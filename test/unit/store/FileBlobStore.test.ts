import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileBlobStore } from '../../../src/store/file/FileBlobStore.js';
import { blobStoreContract } from '../../contract/blobStoreContract.js';

describe('FileBlobStore', () => {
  const root = mkdtempSync(join(tmpdir(), 'chorus-blobs-'));

  after(() => {
    rmSync(root, { recursive: true, force: true });
  });

  describe('contract', () => {
    blobStoreContract(() => Promise.resolve(new FileBlobStore(root)));
  });

  it('refuses keys that would leave its directory', async () => {
    const store = new FileBlobStore(join(root, 'inner'));
    for (const key of ['../escape', 'a/../../escape', 'a//b', '/abs', '.']) {
      await assert.rejects(store.put(key, Buffer.from('x'), 'text/plain'), RangeError, key);
    }
    assert.deepEqual(
      readdirSync(root).filter((name) => name.startsWith('escape')),
      [],
    );
  });

  it('leaves no temporary file behind after a put', async () => {
    const store = new FileBlobStore(join(root, 'tidy'));
    await store.put('one/two.txt', Buffer.from('x'), 'text/plain');
    assert.deepEqual(readdirSync(join(root, 'tidy', 'one')), ['two.txt.blob']);
  });
});
