import { isValidContentType, type BlobStore, type StoredBlob } from '../../domain/BlobStore.js';

/**
 * Blobs in this process's memory: for unit tests that build actors without a data directory. It
 * passes the same contract as FileBlobStore and CassandraBlobStore; nothing in a running node uses it.
 */
export class InMemoryBlobStore implements BlobStore {
  readonly #blobs = new Map<string, StoredBlob>();

  put(key: string, data: Buffer, contentType: string): Promise<void> {
    if (!isValidContentType(contentType)) return Promise.reject(new RangeError(`Invalid content type for blob ${key}`));
    // A copy: the caller may reuse its buffer, and a stored blob must not change under a reader.
    this.#blobs.set(key, { data: Buffer.from(data), contentType });
    return Promise.resolve();
  }

  get(key: string): Promise<StoredBlob | undefined> {
    return Promise.resolve(this.#blobs.get(key));
  }

  delete(key: string): Promise<void> {
    this.#blobs.delete(key);
    return Promise.resolve();
  }
}
