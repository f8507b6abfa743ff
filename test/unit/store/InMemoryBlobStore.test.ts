import { InMemoryBlobStore } from '../../../src/store/memory/InMemoryBlobStore.js';
import { blobStoreContract } from '../../contract/blobStoreContract.js';

describe('InMemoryBlobStore', () => {
  describe('contract', () => {
    blobStoreContract(() => Promise.resolve(new InMemoryBlobStore()));
  });
});
