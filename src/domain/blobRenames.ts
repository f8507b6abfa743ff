import type { BlobStore } from './BlobStore.js';
import type { Logger } from './Logger.js';

/** A blob to move to another key: its owner was re-keyed by a storage migration. */
export interface BlobRename {
  readonly from: string;
  readonly to: string;
}

/**
 * Blob renames a storage migration queued where the blob store is not the database (SQLite records,
 * files on disk), for the node to apply at start.
 */
export interface BlobRenameQueue {
  pending(): Promise<BlobRename[]>;
  /** Forgets a rename once applied. */
  done(rename: BlobRename): Promise<void>;
}

/**
 * Applies every queued rename (copy, then delete the old key, then forget the rename), so a start cut
 * short applies the rest next time. A blob already gone is forgotten; a failing one is logged and kept
 * for the next start, and never stops the node (it only costs an image until then).
 */
export async function applyBlobRenames(queue: BlobRenameQueue, blobs: BlobStore, log: Logger): Promise<void> {
  for (const rename of await queue.pending()) {
    try {
      const blob = await blobs.get(rename.from);
      if (blob !== undefined) {
        await blobs.put(rename.to, blob.data, blob.contentType);
        await blobs.delete(rename.from);
      }
      await queue.done(rename);
    } catch (err) {
      log.warn('blob_rename_failed', { err, from: rename.from, to: rename.to });
    }
  }
}
