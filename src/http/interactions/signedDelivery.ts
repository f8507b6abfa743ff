import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { AppError } from '../../domain/errors.js';
import { signatureTimestamp, signInteraction } from '../../domain/interactionSigning.js';
import { guardedLookup, mayReach, PUBLIC_ONLY, RefusedAddressError, type OutboundReach } from './outboundAddress.js';

/** Discord's window for the first answer to an interaction. */
export const INTERACTION_TIMEOUT_MS = 3_000;

/** The most of an endpoint's answer that is read: Discord's 25 MiB upload cap (an answer may carry files). */
const MAX_ANSWER_BYTES = 26_214_400;

/** What the application's endpoint answered. */
export interface EndpointAnswer {
  readonly status: number;
  readonly bodyText: string;
  /** Its Content-Type header ('' when absent). */
  readonly contentType: string;
}

/** Why a delivery got no answer. */
export type DeliveryFailure = 'refused_url' | 'unreachable' | 'timeout' | 'answer_too_large';

/** A POST to an interactions endpoint that got no HTTP answer (or a refused URL); never from an actor. */
export class InteractionDeliveryError extends AppError {
  readonly kind = 'unavailable';
  readonly httpStatus = 502;

  constructor(
    readonly reason: DeliveryFailure,
    options?: ErrorOptions,
  ) {
    super(`The interactions endpoint could not be reached (${reason})`, 0, options);
  }
}

/** One request as it goes on the wire: the raw body and the two signature headers. */
export interface InteractionRequest {
  readonly url: string;
  readonly body: string;
  readonly timestamp: string;
  readonly signature: string;
}

/**
 * POSTs an interaction to an application's endpoint signed as Discord signs it: Ed25519 over the
 * unix-seconds timestamp followed by the raw body, both in headers. Only http(s) URLs whose host is
 * public (or allowed by `reach`) are contacted; redirects are not followed. Resolves to whatever
 * status the endpoint answered; throws InteractionDeliveryError when there is no answer in time.
 */
export async function postSignedInteraction(
  url: string,
  privateKeyPem: string,
  body: string,
  timeoutMs = INTERACTION_TIMEOUT_MS,
  reach: OutboundReach = PUBLIC_ONLY,
): Promise<EndpointAnswer> {
  const timestamp = signatureTimestamp(Date.now());
  const signature = signInteraction(privateKeyPem, timestamp, body);
  return await postInteraction({ url, body, timestamp, signature }, timeoutMs, reach);
}

/** The URL as a target Chorus may post to; InteractionDeliveryError('refused_url') otherwise. */
export function outboundTarget(url: string, reach: OutboundReach): URL {
  let target: URL;
  try {
    target = new URL(url);
  } catch (error) {
    throw new InteractionDeliveryError('refused_url', { cause: error });
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new InteractionDeliveryError('refused_url');
  if (target.username !== '' || target.password !== '') throw new InteractionDeliveryError('refused_url');
  // An IP literal is connected to without a lookup, so it is checked here; names are checked as they resolve.
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) !== 0 && !mayReach(host, reach)) throw new InteractionDeliveryError('refused_url');
  return target;
}

/** Sends one interaction request as given (the endpoint check also sends a wrongly signed one). */
export async function postInteraction(
  request: InteractionRequest,
  timeoutMs: number,
  reach: OutboundReach,
): Promise<EndpointAnswer> {
  const target = outboundTarget(request.url, reach);
  const signal = AbortSignal.timeout(timeoutMs);
  const client = target.protocol === 'https:' ? https : http;
  return await new Promise<EndpointAnswer>((resolve, reject) => {
    const fail = (error: unknown): void => {
      if (error instanceof InteractionDeliveryError) reject(error);
      else if (signal.aborted) reject(new InteractionDeliveryError('timeout', { cause: error }));
      else if (error instanceof RefusedAddressError)
        reject(new InteractionDeliveryError('refused_url', { cause: error }));
      else reject(new InteractionDeliveryError('unreachable', { cause: error }));
    };
    const outgoing = client.request(target, {
      method: 'POST',
      signal,
      agent: false,
      lookup: guardedLookup(reach),
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(request.body),
        'User-Agent': 'Discord-Interactions/1.0 (+https://discord.com)',
        'X-Signature-Ed25519': request.signature,
        'X-Signature-Timestamp': request.timestamp,
      },
    });
    outgoing.on('error', fail);
    outgoing.on('response', (answer) => {
      readAnswer(answer).then(resolve, (error: unknown) => {
        outgoing.destroy();
        fail(error);
      });
    });
    outgoing.end(request.body);
  });
}

/** The answer's status, body text and type; InteractionDeliveryError past MAX_ANSWER_BYTES. */
async function readAnswer(answer: IncomingMessage): Promise<EndpointAnswer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of answer) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += bytes.length;
    if (size > MAX_ANSWER_BYTES) throw new InteractionDeliveryError('answer_too_large');
    chunks.push(bytes);
  }
  return {
    status: answer.statusCode ?? 0,
    bodyText: Buffer.concat(chunks).toString('utf8'),
    contentType: answer.headers['content-type'] ?? '',
  };
}
