import * as zlib from 'node:zlib';
import type { TransportCompression } from './connectionQuery.js';
import { ZlibStreamEncoder } from './ZlibStreamEncoder.js';
import { ZSTD_STREAM_PARAMETERS, ZstdStreamEncoder } from './ZstdStreamEncoder.js';

/** One socket's transport compression: each written frame leaves as exactly one binary message, in order. */
export interface TransportEncoder {
  write(frame: string | Buffer): void;
  /** Runs `callback` once every frame written so far has been emitted. */
  afterPending(callback: () => void): void;
  close(): void;
}

/** node:zlib's zstd (Node >= 22.15 / 23.8); absent from older runtimes' typings, so looked up by name. */
interface NodeZstd {
  createZstdCompress(options: { params: Record<number, number> }): zlib.Deflate;
  constants: Record<string, number>;
}

function nodeZstd(): NodeZstd | undefined {
  const candidate = zlib as unknown as Partial<NodeZstd>;
  return typeof candidate.createZstdCompress === 'function' ? (candidate as NodeZstd) : undefined;
}

/**
 * The encoder for a socket's `compress=` choice, or undefined for none. zstd-stream uses Node's own
 * zstd stream when the runtime has one (flushed with ZSTD_e_flush, like deflate's Z_SYNC_FLUSH) and
 * zstd-napi otherwise; both keep one context per socket with the same bounded parameters.
 */
export function createTransportEncoder(
  compress: TransportCompression,
  emit: (message: Buffer) => void,
): TransportEncoder | undefined {
  if (compress === 'zlib-stream') return new ZlibStreamEncoder(emit);
  if (compress !== 'zstd-stream') return undefined;
  const native = nodeZstd();
  if (!native) return new ZstdStreamEncoder(emit);
  const c = native.constants;
  const param = (name: string): number => c[`ZSTD_c_${name}`] as number;
  const params = {
    [param('compressionLevel')]: ZSTD_STREAM_PARAMETERS.compressionLevel,
    [param('windowLog')]: ZSTD_STREAM_PARAMETERS.windowLog,
    [param('chainLog')]: ZSTD_STREAM_PARAMETERS.chainLog,
    [param('hashLog')]: ZSTD_STREAM_PARAMETERS.hashLog,
  };
  return new ZlibStreamEncoder(emit, () => native.createZstdCompress({ params }), c.ZSTD_e_flush);
}
