import { CloseCode } from './gatewayProtocol.js';

/** Transport compression a client asked for: one stream per socket, every message binary. */
export type TransportCompression = 'none' | 'zlib-stream' | 'zstd-stream';

/** What a client asked for in the gateway URL's query. */
export interface ConnectionQuery {
  /** Gateway version (READY.v). */
  readonly version: number;
  /** Payload encoding both ways: JSON text or Erlang term format (binary frames). */
  readonly encoding: 'json' | 'etf';
  readonly compress: TransportCompression;
}

const VERSIONS = new Set(['9', '10']);

function transportCompression(value: string | null): TransportCompression {
  return value === 'zlib-stream' || value === 'zstd-stream' ? value : 'none';
}

/**
 * Parses `?v=&encoding=&compress=` of an upgrade request: v 9 or 10 (absent = 10; others close 4012),
 * encoding json or etf (absent = json; others close 4002). Unknown `compress` values are ignored, so
 * such a client gets uncompressed frames.
 */
export function parseConnectionQuery(url: string | undefined): ConnectionQuery | { closeCode: number } {
  const params = new URL(url ?? '/', 'http://gateway.invalid').searchParams;
  const v = params.get('v');
  if (v !== null && !VERSIONS.has(v)) return { closeCode: CloseCode.InvalidApiVersion };
  const encoding = params.get('encoding') ?? 'json';
  if (encoding !== 'json' && encoding !== 'etf') return { closeCode: CloseCode.DecodeError };
  return {
    version: v === null ? 10 : Number(v),
    encoding,
    compress: transportCompression(params.get('compress')),
  };
}
