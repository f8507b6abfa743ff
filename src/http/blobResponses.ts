import type { StoredBlob } from '../domain/BlobStore.js';
import { AppError } from '../domain/errors.js';
import type { EdgeContext, EdgeDeps } from './EdgeDeps.js';

/** A year: bytes under a blob URL never change (new content gets a new id or hash). */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Writes a stored blob as a CDN response. Uploads are served from the API's own origin, so the response
 * is sandboxed (CSP) and never sniffed: an uploaded HTML or SVG file cannot run script as Chorus.
 */
export function sendBlob(ctx: EdgeContext, blob: StoredBlob): void {
  ctx.set('Content-Type', blob.contentType);
  ctx.set('Cache-Control', IMMUTABLE);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
  ctx.body = blob.data;
}

/** Refusals that prove the actor stored nothing (a timeout or an outage proves nothing: the blobs stay). */
const REFUSED_KINDS = new Set(['invalid', 'forbidden', 'not_found', 'rate_limited']);

/** True when an actor's failure proves it kept nothing of the request (so its blobs can go). */
export function isRefusal(thrown: unknown): boolean {
  return thrown instanceof AppError && REFUSED_KINDS.has(thrown.kind);
}

/** Deletes blobs, best effort: a failure only leaves an unreferenced blob, so it is logged, not thrown. */
export async function discardBlobs(deps: EdgeDeps, keys: readonly string[]): Promise<void> {
  const results = await Promise.allSettled(keys.map((key) => deps.blobs.delete(key)));
  for (const result of results) {
    if (result.status === 'rejected') deps.log.warn('blob_not_deleted', { err: result.reason });
  }
}
