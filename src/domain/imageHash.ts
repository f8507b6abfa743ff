import { createHash } from 'node:crypto';
import { ValidationError } from './errors.js';
import { UPLOAD_CONTENT_TYPES, uploadKind } from './imageKind.js';

const DATA_URI = /^data:image\/(png|jpe?g|gif|webp);base64,([A-Za-z0-9+/=\s]+)$/;
const HASH = /^(a_)?[0-9a-f]{32}$/;

/** An image a client sent as a data URI: its bytes and the hash clients build its CDN URL from. */
export interface DecodedImage {
  readonly hash: string;
  readonly data: Buffer;
}

/**
 * The image of a data URI in an image field (avatar, banner, icon): its bytes and their MD5 (`a_`
 * prefix when the URI says GIF, as Discord marks animated images). Undefined for null, '' or an
 * existing hash (the field keeps or clears its image); anything else is a 50035 on `field`.
 */
export function decodeImage(field: string, value: string | null): DecodedImage | undefined {
  if (value === null || value === '' || HASH.test(value)) return undefined;
  const match = DATA_URI.exec(value);
  if (!match) throw ValidationError.field(field, 'IMAGE_INVALID', 'Invalid image data');
  const data = Buffer.from(match[2] ?? '', 'base64');
  const digest = createHash('md5').update(data).digest('hex');
  return { hash: match[1] === 'gif' ? `a_${digest}` : digest, data };
}

/**
 * The stored hash for an image field: a data URI becomes its hash (see decodeImage), an existing hash
 * is kept, null clears. The edge stores the bytes and hands actors the hash, so both paths agree.
 */
export function imageHash(field: string, value: string | null): string | null {
  if (value === null || value === '') return null;
  return decodeImage(field, value)?.hash ?? value;
}

/** The Content-Type stored images are served with, read from their bytes (a data URI's label can lie). */
export function imageContentType(data: Buffer): string {
  const kind = uploadKind(data);
  return kind === undefined ? 'application/octet-stream' : UPLOAD_CONTENT_TYPES[kind];
}
