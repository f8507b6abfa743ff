import { ValidationError } from './errors.js';

/** Upload kinds recognised by their first bytes (clients' declared types are unreliable: discord.js labels every Buffer image/jpg). */
export type UploadKind = 'png' | 'apng' | 'jpeg' | 'gif' | 'webp' | 'avif' | 'lottie';

/** The Content-Type each kind of upload is served with. */
export const UPLOAD_CONTENT_TYPES: Readonly<Record<UploadKind, string>> = {
  png: 'image/png',
  apng: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  lottie: 'application/json',
};

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** True when a PNG carries an animation control chunk (acTL) before its image data: an APNG. */
function isAnimatedPng(data: Buffer): boolean {
  let offset = PNG_SIGNATURE.length;
  while (offset + 8 <= data.length) {
    const length = data.readUInt32BE(offset);
    const type = data.toString('latin1', offset + 4, offset + 8);
    if (type === 'acTL') return true;
    if (type === 'IDAT' || type === 'IEND') return false;
    offset += 12 + length;
  }
  return false;
}

/** The kind of an uploaded image (or Lottie JSON) by its magic bytes; undefined for anything else. */
export function uploadKind(data: Buffer): UploadKind | undefined {
  if (data.subarray(0, 8).equals(PNG_SIGNATURE)) return isAnimatedPng(data) ? 'apng' : 'png';
  if (data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  const head = data.toString('latin1', 0, 12);
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return 'gif';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'webp';
  if (head.slice(4, 12) === 'ftypavif') return 'avif';
  if (/^\s*\{/.test(data.toString('utf8', 0, Math.min(data.length, 64)))) return 'lottie';
  return undefined;
}

/** The bytes of a base64 `data:` URI, or undefined when the value is not one. */
export function dataUriBytes(value: string): Buffer | undefined {
  const match = /^data:[\w/+.-]+;base64,([A-Za-z0-9+/=\s]*)$/.exec(value);
  return match ? Buffer.from(match[1] ?? '', 'base64') : undefined;
}

/** Largest emoji image Discord accepts (256 KiB). */
export const MAX_EMOJI_BYTES = 256 * 1024;
/** Image kinds Discord accepts for emojis. */
const EMOJI_KINDS: ReadonlySet<UploadKind> = new Set(['png', 'apng', 'jpeg', 'gif', 'webp', 'avif']);

/**
 * The bytes of an emoji's `image` (a data URI of at most 256 KiB whose bytes are an image; a GIF makes
 * the emoji animated); 50035 on `image` otherwise. The edge checks it, as it stores the bytes.
 */
export function emojiImage(value: string): { readonly data: Buffer; readonly animated: boolean } {
  const data = dataUriBytes(value);
  const kind = data && data.length > 0 ? uploadKind(data) : undefined;
  if (!data || kind === undefined || !EMOJI_KINDS.has(kind)) {
    throw ValidationError.field('image', 'IMAGE_INVALID', 'Invalid image data');
  }
  if (data.length > MAX_EMOJI_BYTES) {
    throw ValidationError.field(
      'image',
      'BINARY_TYPE_MAX_SIZE',
      `File cannot be larger than ${MAX_EMOJI_BYTES} bytes.`,
    );
  }
  return { data, animated: kind === 'gif' };
}
