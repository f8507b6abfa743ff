import type { ChannelReply } from '../../proto/gen/chorus/v1/channel.js';
import { MAX_ATTACHMENTS, type AttachmentJson } from '../domain/attachment.js';
import { attachmentKey } from '../domain/blobKeys.js';
import { PayloadTooLargeError, ValidationError } from '../domain/errors.js';
import { imageSize } from '../domain/imageSize.js';
import { attachmentContentType, safeFilename } from './attachmentFiles.js';
import { discardBlobs, isRefusal } from './blobResponses.js';
import type { EdgeContext, EdgeDeps } from './EdgeDeps.js';
import { requestFiles, type UploadedFile } from './multipart.js';
import { originOf } from './publicOrigin.js';

/** An entry of a body's `attachments`: a reference to the part `files[id]`, or to an attachment kept on edit. */
export interface AttachmentRef {
  readonly id: string | number;
  readonly filename?: string;
  readonly description?: string;
}

/** What one request stored: the attachment objects, and the blob keys to delete if the message is refused. */
export interface StoredUploads {
  readonly attachments: readonly AttachmentJson[];
  readonly keys: readonly string[];
  /** The part index of each attachment (the id an `attachments` entry refers to it by). */
  readonly indexes: readonly string[];
}

const NO_UPLOADS: StoredUploads = { attachments: [], keys: [], indexes: [] };

/** The index a part refers to: N of `files[N]` (discord.js), else its position among the file parts. */
function partIndex(file: UploadedFile, position: number): string {
  return /^files\[(\d+)\]$/.exec(file.field)?.[1] ?? String(position);
}

/**
 * Stores the request's file parts as attachments of `channelId` before the Channel actor is asked (the
 * actor gets only their metadata). At most 10 files (400 50035 naming `files`), at most
 * `maxUploadBytes` together (413 40005). Each part takes filename and description from the body's
 * `attachments` entry with its index, or its own filename when there is none (as Discord does).
 */
export async function storeUploads(
  ctx: EdgeContext,
  deps: EdgeDeps,
  channelId: string,
  refs: readonly AttachmentRef[] = [],
): Promise<StoredUploads> {
  const files = requestFiles(ctx.request);
  if (files.length === 0) return NO_UPLOADS;
  if (files.length > MAX_ATTACHMENTS) {
    throw ValidationError.field('files', 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_ATTACHMENTS} or fewer in length.`);
  }
  const total = files.reduce((sum, file) => sum + file.data.length, 0);
  if (total > deps.http.maxUploadBytes) throw new PayloadTooLargeError();
  // Stored with the message: the origin of the uploader's request (or CHORUS_PUBLIC_URL).
  const origin = originOf(ctx, deps);
  const uploads = files.map((file, position) => {
    const index = partIndex(file, position);
    const ref = refs.find((entry) => String(entry.id) === index);
    const filename = safeFilename(ref?.filename ?? file.filename);
    const id = deps.ids.next();
    const url = `${origin}/attachments/${channelId}/${id}/${filename}`;
    const attachment: AttachmentJson = {
      id,
      filename,
      size: file.data.length,
      url,
      proxy_url: url,
      content_type: attachmentContentType(file.data, file.contentType, filename),
      ...(ref?.description === undefined ? {} : { description: ref.description }),
      ...imageSize(file.data),
    };
    return { attachment, index, key: attachmentKey(channelId, id, filename), data: file.data };
  });
  const stored: StoredUploads = {
    attachments: uploads.map((upload) => upload.attachment),
    keys: uploads.map((upload) => upload.key),
    indexes: uploads.map((upload) => upload.index),
  };
  try {
    await Promise.all(uploads.map((u) => deps.blobs.put(u.key, u.data, u.attachment.content_type)));
  } catch (thrown) {
    await discardBlobs(deps, stored.keys);
    throw thrown;
  }
  return stored;
}

/**
 * Asks the Channel actor with this request's uploads in place, then makes the blobs match the outcome:
 * a refusal (400/403/404/429) deletes them all, and a reply that does not show some of them (a nonce
 * retry answers with the first message) deletes those, so no blob outlives its request unreferenced.
 */
export async function askWithUploads(
  deps: EdgeDeps,
  uploads: StoredUploads,
  ask: () => Promise<ChannelReply>,
): Promise<ChannelReply> {
  if (uploads.keys.length === 0) return ask();
  let reply: ChannelReply;
  try {
    reply = await ask();
  } catch (thrown) {
    if (isRefusal(thrown)) await discardBlobs(deps, uploads.keys);
    throw thrown;
  }
  const shown = new Set(attachmentIdsOf(reply));
  await discardBlobs(
    deps,
    uploads.keys.filter((_, index) => !shown.has(uploads.attachments[index]?.id ?? '')),
  );
  return reply;
}

/**
 * The `attachments` an edit hands the actor: undefined when the body lists none and uploads none (keep
 * them all), else the listed existing attachments as `{id}` references followed by this request's uploads.
 */
export function editAttachments(
  refs: readonly AttachmentRef[] | undefined,
  uploads: StoredUploads,
): unknown[] | undefined {
  if (refs === undefined && uploads.attachments.length === 0) return undefined;
  const kept = (refs ?? []).filter((ref) => !uploads.indexes.includes(String(ref.id)));
  return [...kept.map((ref) => ({ id: String(ref.id) })), ...uploads.attachments];
}

/** Ids of the attachments of the message a reply carries. */
function attachmentIdsOf(reply: ChannelReply): string[] {
  const outcome = reply.reply;
  if (outcome?.$case !== 'json') return [];
  const message = JSON.parse(outcome.json.json) as { attachments?: { id?: unknown }[] };
  return (message.attachments ?? []).map((attachment) => String(attachment.id));
}
