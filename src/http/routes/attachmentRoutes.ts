import type { Router } from '@koa/router';
import { attachmentKey } from '../../domain/blobKeys.js';
import { RouteNotFoundError } from '../../domain/errors.js';
import { isSnowflake } from '../../domain/snowflake.js';
import { safeFilename } from '../attachmentFiles.js';
import { sendBlob } from '../blobResponses.js';
import type { EdgeDeps, EdgeState } from '../EdgeDeps.js';

/**
 * GET /attachments/{channel_id}/{attachment_id}/{filename}: the bytes of an attachment, at the path
 * Discord's CDN uses, outside /api. No token is asked, as on Discord's CDN: the URL (two snowflakes and
 * the name) is the capability. sendBlob sandboxes the response (it comes from the API's own origin).
 */
export function attachmentRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  router.get('/attachments/:channel_id/:attachment_id/:filename', async (ctx) => {
    const { channel_id: channelId, attachment_id: attachmentId, filename } = ctx.params;
    // Only names the upload path could have produced reach the store (no '..', no odd characters).
    const valid =
      isSnowflake(channelId) && isSnowflake(attachmentId) && filename && safeFilename(filename) === filename;
    const blob = valid ? await deps.blobs.get(attachmentKey(channelId, attachmentId, filename)) : undefined;
    if (blob === undefined) throw new RouteNotFoundError();
    sendBlob(ctx, blob);
  });
}
