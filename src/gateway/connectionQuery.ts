import { CloseCode } from './gatewayProtocol.js';

/** What a client asked for in the gateway URL's query. */
export interface ConnectionQuery {
  /** Gateway version (READY.v). */
  readonly version: number;
  /** True for `compress=zlib-stream`: one deflate stream per socket, binary messages. */
  readonly zlibStream: boolean;
}

const VERSIONS = new Set(['9', '10']);

/**
 * Parses `?v=&encoding=&compress=` of an upgrade request: v 9 or 10 (absent = 10; others close 4012),
 * encoding json (absent = json; etf and others close 4002). Unknown `compress` values are ignored, so
 * such a client gets uncompressed text frames.
 */
export function parseConnectionQuery(url: string | undefined): ConnectionQuery | { closeCode: number } {
  const params = new URL(url ?? '/', 'http://gateway.invalid').searchParams;
  const v = params.get('v');
  if (v !== null && !VERSIONS.has(v)) return { closeCode: CloseCode.InvalidApiVersion };
  const encoding = params.get('encoding');
  if (encoding !== null && encoding !== 'json') return { closeCode: CloseCode.DecodeError };
  return { version: v === null ? 10 : Number(v), zlibStream: params.get('compress') === 'zlib-stream' };
}
