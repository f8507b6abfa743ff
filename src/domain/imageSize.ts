import { uploadKind } from './imageKind.js';

/** Pixel dimensions of an image. */
export interface ImageSize {
  readonly width: number;
  readonly height: number;
}

/** JPEG start-of-frame markers (SOF0..SOF15 without DHT, JPG and DAC), which carry the dimensions. */
const SOF_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** Walks a JPEG's marker segments to its first frame header; undefined for a truncated or odd file. */
function jpegSize(data: Buffer): ImageSize | undefined {
  let offset = 2;
  while (offset + 9 <= data.length) {
    if (data[offset] !== 0xff) return undefined;
    const marker = data[offset + 1] ?? 0;
    // Fill bytes (0xff runs) and markers without a length (RST, SOI, TEM) are skipped one by one.
    if (marker === 0xff || (marker >= 0xd0 && marker <= 0xd8) || marker === 0x01) {
      offset += marker === 0xff ? 1 : 2;
      continue;
    }
    if (SOF_MARKERS.has(marker)) {
      return { height: data.readUInt16BE(offset + 5), width: data.readUInt16BE(offset + 7) };
    }
    offset += 2 + data.readUInt16BE(offset + 2);
  }
  return undefined;
}

/**
 * The dimensions of a PNG, GIF or JPEG read from its header (no decoding: a few bytes, or a walk over
 * JPEG segment headers); undefined for other kinds, so attachments of those omit width and height.
 */
export function imageSize(data: Buffer): ImageSize | undefined {
  const kind = uploadKind(data);
  // PNG: IHDR is the first chunk, its width and height right after the chunk type.
  if ((kind === 'png' || kind === 'apng') && data.length >= 24) {
    return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  }
  if (kind === 'gif' && data.length >= 10) return { width: data.readUInt16LE(6), height: data.readUInt16LE(8) };
  if (kind === 'jpeg') return jpegSize(data);
  return undefined;
}
