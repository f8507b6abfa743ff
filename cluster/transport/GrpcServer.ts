import {
  Server,
  ServerCredentials,
  type sendUnaryData,
  type ServerDuplexStream,
  type ServerReadableStream,
  type ServerUnaryCall,
} from '@grpc/grpc-js';
import type { Empty } from '../../proto/gen/chorus/v1/common.js';
import {
  NodeServiceService,
  type CallBatch,
  type EdgeFramesBatch,
  type Envelope,
  type NodeServiceServer,
  type Reply,
  type ResultBatch,
  type SessionBatch,
} from '../../proto/gen/chorus/v1/node.js';
import { ServiceUnavailableError, toAppError } from '../../src/domain/errors.js';
import type { Logger } from '../../src/domain/Logger.js';
import { envelopeAttributes, eventAttributes, headerOf, servedInSpan } from './callSpans.js';
import { toStatus } from './errorCodec.js';
import { serveExchange } from './ExchangeServer.js';
import { SERVER_OPTIONS } from './grpcOptions.js';
import type { LocalNode } from './LocalNode.js';
import { serveCall, serveFanOut } from './serveCall.js';

/** Where the node's gRPC server listens. */
export interface NodeServerOptions {
  readonly host: string;
  /** 0 binds an ephemeral port (read it from `NodeServer.port`). */
  readonly port: number;
  readonly log: Logger;
}

/** A bound NodeService server. */
export interface NodeServer {
  /** The bound port. */
  readonly port: number;
  /** Starts serving `node`; calls that arrive before are answered UNAVAILABLE (the node id needs the port first). */
  serve(node: LocalNode): void;
  /** Stops the server: waits up to `graceMs` for calls in flight, then cuts the rest (open PushFrames streams). */
  close(graceMs?: number): Promise<void>;
}

const EMPTY: Empty = {};

/**
 * Binds the NodeService on host:port and serves it for `node` (or for the node given later to
 * `serve`). Deliver answers FAILED_PRECONDITION (WrongOwnerError) when this node does not own the
 * actor under its current view; every failure crosses as a status via errorCodec.
 */
export async function startNodeServer(options: NodeServerOptions, node?: LocalNode): Promise<NodeServer> {
  let target = node;
  const { log } = options;
  const server = new Server(SERVER_OPTIONS);
  server.addService(
    NodeServiceService,
    handlers(() => target, log),
  );
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${options.host}:${options.port}`, ServerCredentials.createInsecure(), (error, bound) => {
      if (error)
        reject(new ServiceUnavailableError(`Cannot bind gRPC on ${options.host}:${options.port}: ${error.message}`));
      else resolve(bound);
    });
  });
  return {
    port,
    serve: (next) => {
      target = next;
    },
    close: (graceMs = 1_000) => shutdown(server, graceMs),
  };
}

function shutdown(server: Server, graceMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const force = setTimeout(() => {
      server.forceShutdown();
      resolve();
    }, graceMs);
    server.tryShutdown(() => {
      clearTimeout(force);
      resolve();
    });
  });
}

function handlers(current: () => LocalNode | undefined, log: Logger): NodeServiceServer {
  const fail = (callback: sendUnaryData<never>, method: string, error: unknown, actor?: string): void => {
    if (toAppError(error).kind === 'internal') log.error('grpc_handler_failed', { method, actor, err: error });
    callback(toStatus(error));
  };
  const nodeFor = (callback: sendUnaryData<never>, method: string): LocalNode | undefined => {
    const node = current();
    if (!node) fail(callback, method, new ServiceUnavailableError('Node is starting'));
    return node;
  };

  return {
    deliver(call: ServerUnaryCall<Envelope, Reply>, callback: sendUnaryData<Reply>): void {
      const node = nodeFor(callback, 'deliver');
      if (!node) return;
      // The caller gave up already (deadline or cancel): do not start work nobody waits for.
      if (call.cancelled) return;
      const actor = call.request.actorId;
      let reply;
      try {
        reply = servedInSpan('Deliver', headerOf(call.metadata), envelopeAttributes, call.request, () =>
          serveCall(node, call.request, false),
        );
      } catch (error) {
        fail(callback, 'deliver', error, actor);
        return;
      }
      reply?.then(
        (value) => {
          callback(null, value);
        },
        (error: unknown) => {
          fail(callback, 'deliver', error, actor);
        },
      );
    },

    tell(call: ServerUnaryCall<Envelope, Empty>, callback: sendUnaryData<Empty>): void {
      const node = nodeFor(callback, 'tell');
      if (!node) return;
      let ran;
      try {
        ran = servedInSpan('Tell', headerOf(call.metadata), envelopeAttributes, call.request, () =>
          serveCall(node, call.request, true),
        );
      } catch (error) {
        fail(callback, 'tell', error, call.request.actorId);
        return;
      }
      ran.then(
        () => {
          callback(null, EMPTY);
        },
        (error: unknown) => {
          fail(callback, 'tell', error, call.request.actorId);
        },
      );
    },

    exchange(call: ServerDuplexStream<CallBatch, ResultBatch>): void {
      serveExchange(call, current, log);
    },

    fanOut(call: ServerUnaryCall<SessionBatch, Empty>, callback: sendUnaryData<Empty>): void {
      const node = nodeFor(callback, 'fanOut');
      if (!node) return;
      let taken;
      try {
        taken = servedInSpan('FanOut', headerOf(call.metadata), eventAttributes, call.request.event, () =>
          serveFanOut(node, call.request),
        );
      } catch (error) {
        fail(callback, 'fanOut', error);
        return;
      }
      taken.then(
        () => {
          callback(null, EMPTY);
        },
        (error: unknown) => {
          fail(callback, 'fanOut', error);
        },
      );
    },

    pushFrames(call: ServerReadableStream<EdgeFramesBatch, Empty>, callback: sendUnaryData<Empty>): void {
      const node = nodeFor(callback, 'pushFrames');
      if (!node) return;
      call.on('data', (batch: EdgeFramesBatch) => {
        for (const message of batch.items) {
          try {
            node.deliverFrames(message.socketId, message.frames, message.closeCode);
          } catch (error) {
            log.warn('edge_frames_dropped', { socket: message.socketId, err: toAppError(error).message });
          }
        }
      });
      call.on('end', () => {
        callback(null, EMPTY);
      });
      // A broken stream is reopened by the sender; nothing to answer here.
      call.on('error', () => undefined);
    },
  };
}
