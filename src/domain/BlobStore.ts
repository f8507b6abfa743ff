/** A stored blob: its bytes and the Content-Type it is served with. */
export interface StoredBlob {
  readonly data: Buffer;
  readonly contentType: string;
}

/**
 * Bytes that outlive a request and that every node can read (DESIGN §1: files under the data dir in
 * embedded mode, Cassandra chunks in cluster mode). Keys are `/`-separated paths such as
 * `attachments/<channel>/<attachment>/<filename>`; callers write each key once (fresh snowflakes), so
 * a put on an existing key replaces it but a reader racing that put may see either version.
 */
export interface BlobStore {
  /** Stores `data` under `key`; resolves once any node can read it. */
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** The blob under `key`, or undefined when there is none (or its write never completed). */
  get(key: string): Promise<StoredBlob | undefined>;
  /** Removes the blob under `key`; removing a missing key is harmless. */
  delete(key: string): Promise<void>;
}

/** Content types are written as HTTP headers: one printable line, bounded. */
export function isValidContentType(value: string): boolean {
  return value.length > 0 && value.length <= 255 && /^[\x20-\x7e]+$/.test(value);
}
