import { isStoredAttachment, type AttachmentJson } from '../../src/domain/attachment.js';
import { attachmentKey } from '../../src/domain/blobKeys.js';

/**
 * Attachments travel from the edge to the Channel actor in the body's `attachments` field, which the
 * edge rewrites before asking (a client's own list never reaches the actor as is):
 * - create: exactly the attachments the edge stored for this request;
 * - edit: omitted (keep every attachment), or the attachments to keep as `{id}` references, followed
 *   by the attachments the edge stored for this request (full objects, with a url).
 */

/** The attachments of a new message. */
export function createdAttachments(listed: unknown): AttachmentJson[] {
  return Array.isArray(listed) ? listed.filter(isStoredAttachment) : [];
}

/** A message's attachments after an edit, and how many of them the edit uploads (ATTACH_FILES is needed then). */
export function editedAttachments(
  current: readonly unknown[],
  listed: unknown,
): { attachments: unknown[]; uploaded: number } {
  if (!Array.isArray(listed)) return { attachments: [...current], uploaded: 0 };
  const byId = new Map(current.map((attachment) => [idOf(attachment), attachment]));
  const attachments: unknown[] = [];
  let uploaded = 0;
  for (const entry of listed) {
    if (isStoredAttachment(entry)) {
      attachments.push(entry);
      uploaded += 1;
      continue;
    }
    // A reference to an attachment the message does not have is ignored, as Discord does.
    const kept = byId.get(idOf(entry));
    if (kept !== undefined) {
      attachments.push(kept);
      byId.delete(idOf(entry));
    }
  }
  return { attachments, uploaded };
}

/** The blob keys of a message's attachments (a message of `channelId`: the edge stored them under it). */
export function attachmentBlobKeys(channelId: string, attachments: readonly unknown[]): string[] {
  return attachments
    .filter(isStoredAttachment)
    .filter((attachment) => typeof attachment.filename === 'string')
    .map((attachment) => attachmentKey(channelId, attachment.id, attachment.filename));
}

/** The attachments of `before` that `after` (the same message, edited) no longer has. */
export function droppedAttachments(before: readonly unknown[], after: readonly unknown[]): unknown[] {
  const kept = new Set(after.map(idOf));
  return before.filter((attachment) => !kept.has(idOf(attachment)));
}

function idOf(value: unknown): string {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : '';
}
