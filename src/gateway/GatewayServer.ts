import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ActorSystem } from '../../cluster/ActorSystem.js';
import type { GatewayOptions } from '../config/Config.js';
import type { Logger } from '../domain/Logger.js';
import { noMetrics, type CounterHandle, type Metrics } from '../domain/Metrics.js';
import { isWebSocketUpgrade, PlainHttpUpgrades } from '../http/plainHttpUpgrade.js';
import type { RateLimiter } from '../http/RateLimiter.js';
import { parseConnectionQuery, type ConnectionQuery } from './connectionQuery.js';
import type { ConnectionDeps } from './connectionDeps.js';
import { GatewayConnection } from './GatewayConnection.js';
import { gatewayMetrics } from './gatewayMetrics.js';
import { CLOSE_REASON, MAX_PAYLOAD_BYTES } from './gatewayProtocol.js';
import { SessionStarter } from './SessionStarter.js';

/** Messages above this are cut by `ws` itself (1009); up to it we answer oversize payloads with 4002. */
const MAX_MESSAGE_BYTES = 16 * MAX_PAYLOAD_BYTES;

/**
 * The gateway edge: takes WebSocket upgrades on any path of the HTTP server (clients connect to the
 * URL GET /gateway returns, with only a query), keeps the table of sockets this node holds, and
 * receives the frames Session actors push to them through `system.bindEdge`.
 */
export class GatewayServer {
  /** No client tracking: `#connections` is the socket table (ws would keep a Set and a close listener per socket). */
  readonly #wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    perMessageDeflate: false,
    clientTracking: false,
  });
  readonly #connections = new Map<string, GatewayConnection>();
  readonly #deps: ConnectionDeps;
  readonly #sweeper: ReturnType<typeof setInterval>;
  readonly #plainHttp: PlainHttpUpgrades;
  readonly #opened: CounterHandle;
  readonly #onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    // Only WebSocket upgrades are the gateway's; others (h2c from the JDK's client) are HTTP requests.
    if (!isWebSocketUpgrade(request)) {
      this.#plainHttp.serve(request, socket, head);
      return;
    }
    const query = parseConnectionQuery(request.url);
    const gatewayUrl = this.gatewayUrlOf(request);
    this.#wss.handleUpgrade(request, socket, head, (ws) => {
      this.#accept(ws, socket, query, gatewayUrl);
    });
  };

  constructor(
    private readonly server: Server,
    system: ActorSystem,
    options: GatewayOptions,
    log: Logger,
    /** Identify limits: in memory (embedded) or Redis (cluster), the HTTP edge's limiter. */
    limiter: RateLimiter,
    /** The gateway URL at the origin an upgrade request used (READY.resume_gateway_url). */
    private readonly gatewayUrlOf: (request: IncomingMessage) => string,
    /** Verifies token signatures before any actor is asked. */
    tokenSecret: string,
    metrics: Metrics = noMetrics,
  ) {
    const counters = gatewayMetrics(metrics, () => this.#connections.size);
    this.#deps = {
      system,
      options,
      log,
      starter: new SessionStarter({ system, options, limiter, log, tokenSecret }),
      release: (socketId) => this.#connections.delete(socketId),
      framesIn: counters.framesIn,
    };
    this.#plainHttp = new PlainHttpUpgrades(server);
    server.on('upgrade', this.#onUpgrade);
    this.#opened = counters.opened;
    system.bindEdge((socketId, frames, closeCode) => {
      const connection = this.#connections.get(socketId);
      if (!connection) return;
      counters.framesOut.inc(frames.length);
      connection.push(frames, closeCode);
    });
    // One sweep for all sockets instead of timers per socket; it runs 4 times per heartbeat interval
    // (or per Identify timeout, when shorter), so a deadline is enforced at most a quarter late.
    const sweepMs = Math.min(options.heartbeatIntervalMs, options.identifyTimeoutMs) / 4;
    this.#sweeper = setInterval(
      () => {
        this.#sweep();
      },
      Math.max(10, Math.floor(sweepMs)),
    );
    this.#sweeper.unref();
  }

  /** Sockets open on this node. */
  get size(): number {
    return this.#connections.size;
  }

  /** Stops taking upgrades and moves every client away (op 7, then close 4000, so they resume). */
  close(): void {
    clearInterval(this.#sweeper);
    this.server.off('upgrade', this.#onUpgrade);
    this.#plainHttp.close();
    for (const connection of this.#connections.values()) connection.shutdown();
    this.#wss.close();
  }

  #accept(ws: WebSocket, socket: Duplex, query: ConnectionQuery | { closeCode: number }, gatewayUrl: string): void {
    if ('closeCode' in query) {
      ws.close(query.closeCode, CLOSE_REASON[query.closeCode] ?? '');
      return;
    }
    // Random, not a counter: a session compares socket ids, and ids from different nodes must not collide.
    const socketId = randomUUID();
    this.#opened.inc();
    this.#connections.set(socketId, new GatewayConnection(ws, socket, socketId, query, this.#deps, gatewayUrl));
  }

  #sweep(): void {
    const now = Date.now();
    for (const connection of this.#connections.values()) {
      connection.checkHeartbeat(now);
      connection.checkIdentified(now);
    }
  }
}
