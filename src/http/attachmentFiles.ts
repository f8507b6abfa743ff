import { isValidContentType } from '../domain/BlobStore.js';
import { UPLOAD_CONTENT_TYPES, uploadKind } from '../domain/imageKind.js';

/** Longest filename kept (Discord truncates long names too); the extension survives the cut. */
const MAX_FILENAME = 128;

/**
 * The filename an attachment is stored and served under. As Discord does, characters other than ASCII
 * letters, digits, `.`, `-` and `_` become `_`, so the name is one safe URL path segment and one safe
 * file name on every file system; a name of dots only (`..`) becomes `unknown`.
 */
export function safeFilename(name: string): string {
  let safe = name.replace(/[^A-Za-z0-9._-]/g, '_');
  if (safe.length > MAX_FILENAME) {
    const dot = safe.lastIndexOf('.');
    const extension = dot > 0 && safe.length - dot <= 16 ? safe.slice(dot) : '';
    safe = safe.slice(0, MAX_FILENAME - extension.length) + extension;
  }
  return /^\.*$/.test(safe) ? 'unknown' : safe;
}

const TEXT = 'text/plain; charset=utf-8';
const BY_EXTENSION: Readonly<Record<string, string>> = {
  txt: TEXT,
  log: TEXT,
  md: 'text/markdown; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  html: 'text/html; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  pdf: 'application/pdf',
  zip: 'application/zip',
};

const GENERIC = 'application/octet-stream';

/**
 * The content type an upload is served with: the image kind its bytes show first (clients mislabel
 * images), then the part's declared type when it says more than "bytes", then the filename's
 * extension (discord.js sends a text Buffer with no type), then application/octet-stream.
 */
export function attachmentContentType(data: Buffer, declared: string, filename: string): string {
  const kind = uploadKind(data);
  // Lottie is JSON text: a JSON attachment keeps its declared type or extension instead.
  const sniffed = kind === undefined || kind === 'lottie' ? undefined : UPLOAD_CONTENT_TYPES[kind];
  if (sniffed !== undefined) return sniffed;
  const type = declared.trim().toLowerCase();
  if (type !== '' && type !== GENERIC && isValidContentType(type)) return type;
  const extension = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase() ?? '';
  return BY_EXTENSION[extension] ?? GENERIC;
}
