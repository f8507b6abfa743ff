/**
 * A Discord attachment object, as a message stores and returns it. The edge builds it when it stores
 * an upload (the bytes stay in the BlobStore; the Channel actor only ever sees this metadata).
 */
export interface AttachmentJson {
  readonly id: string;
  readonly filename: string;
  readonly size: number;
  /** Where Chorus serves the bytes: `<public URL>/attachments/<channel>/<id>/<filename>` (Discord's CDN shape). */
  readonly url: string;
  readonly proxy_url: string;
  readonly content_type: string;
  readonly description?: string;
  readonly width?: number;
  readonly height?: number;
}

/** Discord's limit on attachments per message (more: 400 50035). */
export const MAX_ATTACHMENTS = 10;

/** True for an attachment object the edge built (a client's reference carries no url). */
export function isStoredAttachment(value: unknown): value is AttachmentJson {
  const candidate = value as Partial<AttachmentJson> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.id === 'string' &&
    typeof candidate.url === 'string' &&
    typeof candidate.size === 'number'
  );
}
