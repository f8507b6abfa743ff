import type { ChannelReply } from '../../../proto/gen/chorus/v1/channel.js';
import { parseJsonObject } from '../../domain/jsonValue.js';
import {
  askWithUploads,
  editAttachments,
  storeUploads,
  type AttachmentRef,
  type StoredUploads,
} from '../attachmentUploads.js';
import type { EdgeContext, EdgeDeps } from '../EdgeDeps.js';

/** A message body of an interaction response, followup or edit, with the attachments it refers to. */
interface WithAttachments {
  attachments?: readonly AttachmentRef[] | undefined;
}

/**
 * Stores the request's file parts as attachments of the interaction's channel and puts them in the
 * body: as a new message's attachments (`create`), or after the kept ones (`edit`, see editAttachments).
 * Returns the body as JSON for the Channel actor, and the uploads to settle once it answered.
 */
export async function bodyWithUploads(
  ctx: EdgeContext,
  deps: EdgeDeps,
  channelId: string,
  body: WithAttachments & Record<string, unknown>,
  mode: 'create' | 'edit',
): Promise<{ json: string; uploads: StoredUploads }> {
  const uploads = await storeUploads(ctx, deps, channelId, body.attachments);
  const attachments = mode === 'edit' ? editAttachments(body.attachments, uploads) : [...uploads.attachments];
  const out: Record<string, unknown> = { ...body };
  if (attachments === undefined) delete out['attachments'];
  else out['attachments'] = attachments;
  return { json: JSON.stringify(out), uploads };
}

/**
 * Asks with this request's uploads in place (see askWithUploads) when the reply is a callback
 * resource: the uploads its `resource.message` does not show are deleted, as are all of them on a refusal.
 */
export async function askCallbackWithUploads(
  deps: EdgeDeps,
  uploads: StoredUploads,
  ask: () => Promise<ChannelReply>,
): Promise<ChannelReply> {
  // Without files (most callbacks) there is nothing to clean up: the reply is not read here.
  if (uploads.keys.length === 0) return ask();
  let full: ChannelReply | undefined;
  await askWithUploads(deps, uploads, async () => {
    full = await ask();
    const outcome = full.reply;
    const resource = outcome?.$case === 'json' ? parseJsonObject(outcome.json.json)['resource'] : undefined;
    const message =
      typeof resource === 'object' && resource !== null ? (resource as Record<string, unknown>)['message'] : undefined;
    return { reply: { $case: 'json', json: { json: JSON.stringify(message ?? {}) } } };
  });
  return full ?? { reply: { $case: 'empty', empty: {} } };
}
