import type { Middleware } from 'koa';
import { type AppError, BadRequestError, PayloadTooLargeError } from '../domain/errors.js';
import { jsonBoundsError } from '../domain/jsonBounds.js';
import { quoteUnsafeIntegers } from '../domain/losslessJson.js';
import { parseMultipart } from './multipart.js';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** What a `for await` over a request that closed before its end rejects with (Node's ERR_STREAM_PREMATURE_CLOSE). */
const prematureClose = (): Error => Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });

/**
 * The request body, at most `maxBytes`: a declared Content-Length past it is refused unread; a body that grows past
 * it while read (chunked, or an understated length) stops being read and is refused too, with the response marked
 * `Connection: close` so the 413 is written and the socket then closed (destroying the request here would destroy
 * the socket under the response, and a client still streaming would never get its 413). Read with listeners rather
 * than `for await`: the stream's async iterator cost a promise, an end-of-stream watcher and their closures per
 * request, about 4% of a message POST's CPU. An error or a close before the end rejects, as the iterator did.
 */
function readCapped(ctx: Parameters<Middleware>[0], maxBytes: number): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > maxBytes) return Promise.reject(new PayloadTooLargeError());
  const req = ctx.req;
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  if (req.destroyed) return Promise.reject(prematureClose());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        stop();
        req.pause();
        ctx.set('Connection', 'close');
        reject(new PayloadTooLargeError());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error): void => {
      stop();
      reject(error);
    };
    const onClose = (): void => {
      stop();
      reject(prematureClose());
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** The body parsed (integers beyond 2^53 kept as strings) and within bounds, or why it is refused. */
function parseJson(text: string): { body: unknown } | { error: AppError } {
  const error = jsonBoundsError(text);
  if (error) return { error };
  try {
    return { body: JSON.parse(quoteUnsafeIntegers(text)) as unknown };
  } catch {
    return { error: new BadRequestError('The request body contains invalid JSON.', 50_109) };
  }
}

/**
 * Reads and parses the JSON body, capped at `maxBytes`: larger → 413 (40005); malformed JSON → 400
 * (50109); nested too deep or holding too many values → 400 (50035, see jsonBounds); either refusal is
 * thrown when the route first reads `ctx.request.body`, after its own checks of who is calling. The
 * parsed value is `ctx.request.body`. A multipart body gives its `payload_json` part,
 * or, without one, its text fields as an object of strings (discord.js sends sticker uploads that
 * way); its file parts are `ctx.request.files`. A multipart body may be larger: `maxUploadBytes` of
 * files on top of `maxBytes` (routes check the files' total against `maxUploadBytes` themselves, to
 * answer with the same 413 however the parts are framed).
 */
export function readBody(maxBytes: number, maxUploadBytes = 0): Middleware {
  // A request without a body passes straight on (next()'s promise returned, no async layer of its own).
  return (ctx, next) => {
    if (!METHODS_WITH_BODY.has(ctx.method)) return next();
    const contentType = ctx.get('content-type');
    const multipart = /^multipart\/form-data/i.test(contentType);
    return readCapped(ctx, multipart ? maxBytes + maxUploadBytes : maxBytes).then((raw) => {
      let text: string | undefined = raw.length > 0 ? raw.toString('utf8') : undefined;
      let body: unknown = undefined;
      if (multipart) {
        const { fields, files } = parseMultipart(raw, contentType);
        // Files may fill the upload allowance; the JSON and text parts keep the plain body's cap.
        let textBytes = 0;
        for (const value of fields.values()) textBytes += Buffer.byteLength(value);
        if (textBytes > maxBytes) throw new PayloadTooLargeError();
        text = fields.get('payload_json');
        if (text === undefined && fields.size > 0) body = Object.fromEntries(fields);
        (ctx.request as { files?: unknown }).files = files;
      }
      const refusal = text !== undefined && text.trim() !== '' ? parseJson(text) : { body };
      if ('error' in refusal) {
        // Refused when first read, not here: a route checks its caller's credentials (a webhook's
        // token, a permission) before it looks at the body, so a stranger learns nothing about it.
        const { error } = refusal;
        Object.defineProperty(ctx.request, 'body', {
          get: () => {
            throw error;
          },
        });
      } else {
        (ctx.request as { body?: unknown }).body = refusal.body;
      }
      return next();
    });
  };
}
