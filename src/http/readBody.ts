import type { Middleware } from 'koa';
import { BadRequestError, PayloadTooLargeError, ValidationError } from '../domain/errors.js';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

async function readCapped(ctx: Parameters<Middleware>[0], maxBytes: number): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > maxBytes) throw new PayloadTooLargeError();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new PayloadTooLargeError();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Extracts `payload_json` from a multipart body (discord.js sends files that way). */
function payloadFromMultipart(raw: Buffer, contentType: string): string | undefined {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const marker = boundary?.[1] ?? boundary?.[2];
  if (!marker) throw ValidationError.field('payload_json', 'MULTIPART_INVALID', 'Multipart body has no boundary');
  for (const part of raw.toString('utf8').split(`--${marker}`)) {
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) continue;
    const headers = part.slice(0, split);
    if (/name="payload_json"/i.test(headers)) return part.slice(split + 4).replace(/\r\n$/, '');
  }
  return undefined;
}

/**
 * Reads and parses the JSON body (or a multipart body's payload_json), capped at `maxBytes`:
 * larger → 413 (40005); malformed JSON → 400 (50109). The parsed value is `ctx.request.body`.
 */
export function readBody(maxBytes: number): Middleware {
  return async (ctx, next) => {
    if (METHODS_WITH_BODY.has(ctx.method)) {
      const raw = await readCapped(ctx, maxBytes);
      const contentType = ctx.get('content-type');
      let text: string | undefined = raw.length > 0 ? raw.toString('utf8') : undefined;
      if (/^multipart\/form-data/i.test(contentType)) text = payloadFromMultipart(raw, contentType);
      let body: unknown = undefined;
      if (text !== undefined && text.trim() !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          throw new BadRequestError('The request body contains invalid JSON.', 50_109);
        }
      }
      (ctx.request as { body?: unknown }).body = body;
    }
    await next();
  };
}
