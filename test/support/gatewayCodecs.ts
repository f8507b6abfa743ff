import { createRequire } from 'node:module';
import { Decompress } from 'fzstd';

/**
 * erlpack, the Erlang-term codec of Discord's desktop client: an implementation independent of the
 * server's own (src/gateway/etf), so ETF tests check the wire against what a real client reads.
 */
export const erlpack = createRequire(import.meta.url)('erlpack') as {
  pack(value: unknown): Buffer;
  unpack(data: Buffer): unknown;
};

/**
 * A client's zstd-stream reader: one pure-JS streaming decompressor (fzstd) for the socket's life, fed
 * one WebSocket message at a time. Each message must decode, on arrival, to exactly one gateway payload.
 */
export class ZstdStreamReader {
  #chunks: Uint8Array[] = [];
  readonly #stream = new Decompress((chunk) => {
    this.#chunks.push(chunk);
  });

  /** Decompresses one message and returns its bytes (all the output this message released). */
  read(message: Buffer): Buffer {
    this.#stream.push(message);
    const out = Buffer.concat(this.#chunks);
    this.#chunks = [];
    return out;
  }
}
