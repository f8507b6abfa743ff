import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** Headers that only ask for the protocol switch; the request keeps every other header. */
const UPGRADE_ONLY_HEADERS = new Set(['upgrade', 'http2-settings']);

/** True for a WebSocket upgrade: the one protocol switch Chorus serves (the gateway's). */
export function isWebSocketUpgrade(request: IncomingMessage): boolean {
  const upgrade = request.headers.upgrade ?? '';
  return upgrade.split(',').some((protocol) => protocol.trim().toLowerCase() === 'websocket');
}

/** The request's head as it came, less its upgrade headers and the Connection tokens naming them. */
function plainHead(request: IncomingMessage): Buffer {
  const lines = [`${request.method ?? 'GET'} ${request.url ?? '/'} HTTP/${request.httpVersion}`];
  const raw = request.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index] ?? '';
    const value = raw[index + 1] ?? '';
    const lower = name.toLowerCase();
    if (UPGRADE_ONLY_HEADERS.has(lower)) continue;
    if (lower === 'connection') {
      const kept = value
        .split(',')
        .map((token) => token.trim())
        .filter((token) => token !== '' && !UPGRADE_ONLY_HEADERS.has(token.toLowerCase()));
      if (kept.length > 0) lines.push(`${name}: ${kept.join(', ')}`);
      continue;
    }
    lines.push(`${name}: ${value}`);
  }
  // Node decodes header bytes as latin1, so encoding back as latin1 gives the bytes the client sent.
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}

/**
 * Serves requests that ask to switch to a protocol Chorus does not speak as the plain HTTP/1.1 requests
 * they also are (RFC 9110 §7.8: a server may ignore Upgrade). The JDK's HttpClient sends
 * `Upgrade: h2c` on http:// URLs. Node 20's server hands every request with an Upgrade header to the
 * 'upgrade' listeners once one exists (the gateway's), with the socket detached from HTTP, and has no
 * `shouldUpgradeCallback` (Node 24). So the request's head is rebuilt without its upgrade headers and
 * put back in front of the bytes already read after it (the body's start), and the socket is handed to
 * the server again as a connection: the server's own parser reads the request, body included, and
 * keeps serving the connection as usual.
 */
export class PlainHttpUpgrades {
  /** Responses not yet closed, per socket: a pipelined upgrade waits for them (they own the socket). */
  readonly #open = new WeakMap<Duplex, number>();
  readonly #whenIdle = new WeakMap<Duplex, (() => void)[]>();
  readonly #onRequest = (request: IncomingMessage, response: ServerResponse): void => {
    const socket = request.socket;
    this.#open.set(socket, (this.#open.get(socket) ?? 0) + 1);
    response.once('close', () => {
      const left = (this.#open.get(socket) ?? 1) - 1;
      this.#open.set(socket, left);
      if (left > 0) return;
      const waiting = this.#whenIdle.get(socket) ?? [];
      this.#whenIdle.delete(socket);
      for (const wake of waiting) wake();
    });
  };

  constructor(private readonly server: Server) {
    server.on('request', this.#onRequest);
  }

  /** Answers the upgrade request (from the server's 'upgrade' event) as a plain request. */
  serve(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const bytes = Buffer.concat([plainHead(request), head]);
    if ((this.#open.get(socket) ?? 0) === 0) {
      this.#replay(socket, bytes);
      return;
    }
    // Node took the socket's listeners with the upgrade: until the replay, an error must not go unheard.
    const onError = (): void => {
      socket.destroy();
    };
    socket.on('error', onError);
    const waiting = this.#whenIdle.get(socket) ?? [];
    waiting.push(() => {
      socket.off('error', onError);
      this.#replay(socket, bytes);
    });
    this.#whenIdle.set(socket, waiting);
  }

  /** Stops tracking responses (the server is closing). */
  close(): void {
    this.server.off('request', this.#onRequest);
  }

  #replay(socket: Duplex, bytes: Buffer): void {
    if (socket.destroyed) return;
    if (!this.server.listening) {
      socket.destroy();
      return;
    }
    // A keep-alive timer the previous response armed would otherwise outlive the connection it was for.
    (socket as Duplex & { setTimeout?: (ms: number) => void }).setTimeout?.(0);
    socket.unshift(bytes);
    this.server.emit('connection', socket);
  }
}
