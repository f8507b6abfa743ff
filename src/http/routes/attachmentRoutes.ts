import type { Router } from '@koa/router';
import { RouteNotFoundError } from '../../domain/errors.js';
import { isSnowflake } from '../../domain/snowflake.js';
import { safeFilename } from '../attachmentFiles.js';
import { attachmentKey } from '../attachmentUploads.js';
import type { EdgeDeps, EdgeState } from '../EdgeDeps.js';

/** A year: an attachment's bytes never change under its URL (a new upload gets a new id). */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * GET /attachments/{channel_id}/{attachment_id}/{filename}: the bytes of an attachment, at the path
 * Discord's CDN uses, outside /api. No token is asked, as on Discord's CDN: the URL (two snowflakes and
 * the name) is the capability. Uploads are served from the API's own origin, so the response is
 * sandboxed (CSP) and never sniffed: an uploaded HTML or SVG file cannot run script as Chorus.
 */
export function attachmentRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  router.get('/attachments/:channel_id/:attachment_id/:filename', async (ctx) => {
    const { channel_id: channelId, attachment_id: attachmentId, filename } = ctx.params;
    // Only names the upload path could have produced reach the store (no '..', no odd characters).
    const valid =
      isSnowflake(channelId) && isSnowflake(attachmentId) && filename && safeFilename(filename) === filename;
    const blob = valid ? await deps.blobs.get(attachmentKey(channelId, attachmentId, filename)) : undefined;
    if (blob === undefined) throw new RouteNotFoundError();
    ctx.set('Content-Type', blob.contentType);
    ctx.set('Cache-Control', IMMUTABLE);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
    ctx.body = blob.data;
  });
}
