import { isStoredAttachment, type AttachmentJson } from '../../src/domain/attachment.js';

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

function idOf(value: unknown): string {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : '';
}
