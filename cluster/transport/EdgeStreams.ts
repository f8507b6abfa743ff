import { Metadata, type ClientWritableStream } from '@grpc/grpc-js';
import type { EdgeFrames, EdgeFramesBatch } from '../../proto/gen/chorus/v1/node.js';
import type { Logger } from '../../src/domain/Logger.js';
import { fromServiceError } from './errorCodec.js';
import type { GrpcClientPool } from './GrpcClientPool.js';

/** A batch is written early once its frames pass this many characters (well under the message cap). */
const FLUSH_AT_CHARS = 1024 * 1024;

interface Pending {
  readonly items: EdgeFrames[];
  chars: number;
}

/**
 * One open PushFrames stream per edge node. Pushes made during one turn of the event loop are
 * gathered per node and written as one EdgeFramesBatch (a fan-out wakes many sessions at once), and
 * all batches for a node go down the same HTTP/2 stream, so frames arrive in push order. A failed
 * stream is forgotten and the next batch opens a new one; frames written into a stream as it broke
 * are lost, which a gateway client recovers from by resuming (its Session actor replays from its
 * last sequence number).
 */
export class EdgeStreams {
  readonly #streams = new Map<string, ClientWritableStream<EdgeFramesBatch>>();
  readonly #pending = new Map<string, Pending>();
  #flushScheduled = false;
  #closed = false;

  constructor(
    private readonly clients: GrpcClientPool,
    private readonly log: Logger,
  ) {}

  /** Queues frames for a socket on `nodeId`; they are written at the end of this event-loop turn. */
  push(nodeId: string, socketId: string, frames: readonly string[], closeCode: number): void {
    if (this.#closed) return;
    let pending = this.#pending.get(nodeId);
    if (!pending) this.#pending.set(nodeId, (pending = { items: [], chars: 0 }));
    // The encoder only reads `frames`, so the caller's array goes out without a copy.
    pending.items.push({ socketId, frames: frames as string[], closeCode });
    for (const frame of frames) pending.chars += frame.length;
    if (pending.chars >= FLUSH_AT_CHARS) this.#write(nodeId, pending);
    else if (!this.#flushScheduled) {
      this.#flushScheduled = true;
      setImmediate(() => {
        this.#flush();
      });
    }
  }

  /** Ends the stream to one node (it left the view). */
  end(nodeId: string): void {
    this.#pending.delete(nodeId);
    this.#streams.get(nodeId)?.end();
    this.#streams.delete(nodeId);
  }

  /** Writes what is queued, then ends every stream; later pushes are ignored. */
  close(): void {
    this.#flush();
    this.#closed = true;
    for (const stream of this.#streams.values()) stream.end();
    this.#streams.clear();
  }

  #flush(): void {
    this.#flushScheduled = false;
    for (const [nodeId, pending] of this.#pending) this.#write(nodeId, pending);
  }

  #write(nodeId: string, pending: Pending): void {
    this.#pending.delete(nodeId);
    const stream = this.#streams.get(nodeId) ?? this.#open(nodeId);
    stream.write({ items: pending.items });
  }

  #open(nodeId: string): ClientWritableStream<EdgeFramesBatch> {
    // No deadline: the stream lives as long as the peer; keepalive pings detect a dead one.
    const stream = this.clients.get(nodeId).pushFrames(new Metadata(), {}, (error) => {
      if (this.#streams.get(nodeId) === stream) this.#streams.delete(nodeId);
      if (error && !this.#closed) {
        this.log.warn('edge_stream_failed', { node: nodeId, err: fromServiceError(error, nodeId).message });
      }
    });
    this.#streams.set(nodeId, stream);
    return stream;
  }
}
