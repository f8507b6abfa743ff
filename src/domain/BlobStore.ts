import type { Logger } from './Logger.js';

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

/**
 * What an actor gets of the blob store: it deletes the bytes its records stop referencing (a deleted
 * message's attachments, a replaced avatar), but bytes never pass through an actor.
 */
export type BlobRemover = Pick<BlobStore, 'delete'>;

/** Deletes in flight at once: a bulk delete may name a thousand attachments. */
const DELETES_AT_ONCE = 8;

/** Deletes every key, a few at a time; once all were tried, rejects with the first failure, if any. */
export async function deleteBlobs(blobs: BlobRemover, keys: readonly string[]): Promise<void> {
  const failures: unknown[] = [];
  for (let from = 0; from < keys.length; from += DELETES_AT_ONCE) {
    const results = await Promise.allSettled(keys.slice(from, from + DELETES_AT_ONCE).map((key) => blobs.delete(key)));
    for (const result of results) if (result.status === 'rejected') failures.push(result.reason);
  }
  if (failures.length > 0) throw failures[0];
}

/**
 * Deletes the blobs a change already committed stopped referencing. The change stands whatever
 * happens here, so a failure is logged (with the keys left behind), not thrown at the caller.
 */
export async function deleteBlobsAfterCommit(blobs: BlobRemover, log: Logger, keys: readonly string[]): Promise<void> {
  try {
    await deleteBlobs(blobs, keys);
  } catch (err) {
    log.warn('blob_not_deleted', { err, keys });
  }
}

/** Content types are written as HTTP headers: one printable line, bounded. */
export function isValidContentType(value: string): boolean {
  return value.length > 0 && value.length <= 255 && /^[\x20-\x7e]+$/.test(value);
}
