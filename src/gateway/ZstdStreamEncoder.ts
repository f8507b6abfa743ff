import { createRequire } from 'node:module';
import type * as ZstdBinding from 'zstd-napi/binding.js';

/**
 * Per-socket compression parameters. windowLog 20 keeps a client's decoder window at 1 MiB; chainLog and
 * hashLog 16 bound the compressor's tables (about 0.7 MiB of native memory per socket, outside the JS
 * heap) while keeping most of the ratio that cross-message history brings.
 */
export const ZSTD_STREAM_PARAMETERS = { compressionLevel: 6, windowLog: 20, chainLog: 16, hashLog: 16 } as const;

const load = createRequire(import.meta.url);
let binding: typeof ZstdBinding | undefined;
/** One scratch output buffer for every socket: compression is synchronous, so sockets never share it at once. */
let scratch: Buffer | undefined;

/**
 * Transport compression `zstd-stream` through zstd-napi: one compression context per socket for its
 * lifetime; each frame is compressed with ZSTD_e_flush (never ZSTD_e_end), so its message decodes on
 * arrival while the frame, and the history later messages refer back to, stays open. Synchronous: the
 * message is emitted before `write` returns, so order is the call order.
 */
export class ZstdStreamEncoder {
  #context: ZstdBinding.CCtx | undefined;

  constructor(private readonly emit: (message: Buffer) => void) {
    binding ??= load('zstd-napi/binding.js') as typeof ZstdBinding;
    const context = new binding.CCtx();
    for (const [name, value] of Object.entries(ZSTD_STREAM_PARAMETERS)) {
      context.setParameter(binding.CParameter[name as keyof typeof ZSTD_STREAM_PARAMETERS], value);
    }
    this.#context = context;
  }

  /** Compresses one frame and emits it as one message. */
  write(frame: string | Buffer): void {
    const context = this.#context;
    if (!context || !binding) return;
    scratch ??= Buffer.allocUnsafe(binding.cStreamOutSize());
    let input = typeof frame === 'string' ? Buffer.from(frame, 'utf8') : frame;
    const chunks: Buffer[] = [];
    for (;;) {
      const [remaining, produced, consumed] = context.compressStream2(scratch, input, binding.EndDirective.flush);
      if (produced > 0) chunks.push(Buffer.from(scratch.subarray(0, produced)));
      input = input.subarray(consumed);
      if (remaining === 0 && input.length === 0) break;
    }
    this.emit(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
  }

  /** Every frame is emitted inside `write`, so nothing is ever pending. */
  afterPending(callback: () => void): void {
    callback();
  }

  /**
   * Drops the context; ZSTD_freeCCtx runs when the wrapper is collected. zstd-napi reports each
   * context's size to V8 as external memory, so many closed sockets do press the collector.
   */
  close(): void {
    this.#context = undefined;
  }
}
