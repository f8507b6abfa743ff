import { ValidationError } from '../domain/errors.js';

/** One file part of a multipart/form-data body. */
export interface UploadedFile {
  /** The form field name (discord.js: `file` for stickers, `files[N]` for message attachments). */
  readonly field: string;
  readonly filename: string;
  /** The part's declared Content-Type ('' when absent). */
  readonly contentType: string;
  readonly data: Buffer;
}

/** A parsed multipart/form-data body: text fields by name (the last one wins) and file parts. */
export interface MultipartBody {
  readonly fields: ReadonlyMap<string, string>;
  readonly files: readonly UploadedFile[];
}

/** At most this many parts are read; more is refused (50035), so a body cannot carry unbounded parts. */
const MAX_PARTS = 64;

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

function invalid(message: string): ValidationError {
  return ValidationError.field('payload_json', 'MULTIPART_INVALID', message);
}

function boundaryOf(contentType: string): string {
  const match = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const boundary = (match?.[1] ?? match?.[2])?.trim();
  if (!boundary) throw invalid('Multipart body has no boundary');
  return boundary;
}

/** A header parameter (`name="x"`) of a part's Content-Disposition, or undefined. */
function dispositionParam(headers: string, param: string): string | undefined {
  const disposition = /^content-disposition:(.*)$/im.exec(headers)?.[1] ?? '';
  const match = new RegExp(`;\\s*${param}="([^"]*)"`, 'i').exec(disposition);
  return match?.[1];
}

/**
 * Parses a multipart/form-data body on its bytes (file parts are binary, so never through a string).
 * Parts without a name are skipped; a body without its boundary, or with too many parts, is 50035.
 */
export function parseMultipart(raw: Buffer, contentType: string): MultipartBody {
  // Every delimiter is CRLF "--boundary"; a leading CRLF makes the first one match too, so a
  // boundary-like run inside a part's content (not after a line break) never splits it.
  const body = Buffer.concat([CRLF, raw]);
  const delimiter = Buffer.from(`\r\n--${boundaryOf(contentType)}`);
  const fields = new Map<string, string>();
  const files: UploadedFile[] = [];
  let start = body.indexOf(delimiter);
  if (start < 0) {
    if (raw.length === 0) return { fields, files };
    throw invalid('Multipart body does not contain its boundary');
  }
  let parts = 0;
  for (;;) {
    const afterDelimiter = start + delimiter.length;
    // "--" right after a delimiter closes the body.
    if (body[afterDelimiter] === 0x2d && body[afterDelimiter + 1] === 0x2d) break;
    const next = body.indexOf(delimiter, afterDelimiter);
    if (next < 0) break;
    parts += 1;
    if (parts > MAX_PARTS) throw invalid(`Multipart body has more than ${MAX_PARTS} parts`);
    // A part is CRLF, headers, CRLF CRLF, then its content up to the next delimiter.
    const part = body.subarray(afterDelimiter + CRLF.length, next);
    const split = part.indexOf(HEADER_END);
    if (split >= 0) {
      const headers = part.subarray(0, split).toString('utf8');
      const content = part.subarray(split + HEADER_END.length);
      const name = dispositionParam(headers, 'name');
      const filename = dispositionParam(headers, 'filename');
      if (name !== undefined && filename !== undefined) {
        const type = /^content-type:\s*([^\r\n;]+)/im.exec(headers)?.[1]?.trim() ?? '';
        files.push({ field: name, filename, contentType: type, data: Buffer.from(content) });
      } else if (name !== undefined) {
        fields.set(name, content.toString('utf8'));
      }
    }
    start = next;
  }
  return { fields, files };
}

/** The request's uploaded files, as readBody left them ([] for a request without multipart files). */
export function requestFiles(request: object): readonly UploadedFile[] {
  return (request as { files?: readonly UploadedFile[] }).files ?? [];
}
