import { createServer, type Server } from 'node:http';
import type { HttpOptions } from '../config/Config.js';

/** A listening HTTP server and the URLs clients reach it at. */
export interface HttpListener {
  readonly server: Server;
  readonly port: number;
  /** Host part used in URLs and node ids (0.0.0.0 becomes localhost). */
  readonly host: string;
  readonly url: string;
  readonly gatewayUrl: string;
}

/** Binds the HTTP port first, so an ephemeral port (0) is known before anything names this node. */
export async function listenHttp(options: HttpOptions): Promise<HttpListener> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host === '0.0.0.0' || options.host === '::' ? 'localhost' : options.host;
  const url = options.publicUrl || `http://${host}:${port}`;
  return { server, port, host, url, gatewayUrl: url.replace(/^http/, 'ws') };
}

/** Stops taking requests and drops idle and open connections (keep-alive clients would hold close() up). */
export async function closeHttp(listener: HttpListener): Promise<void> {
  listener.server.closeAllConnections();
  await new Promise<void>((resolve) => {
    listener.server.close(() => {
      resolve();
    });
  });
}

/** How often a draining server drops the keep-alive connections that became idle. */
const IDLE_SWEEP_MS = 50;

/**
 * Graceful close: stops taking connections, lets requests in flight finish for up to `timeoutMs`
 * (keep-alive connections are dropped as soon as they are idle), then drops whatever is left.
 */
export async function drainHttp(listener: HttpListener, timeoutMs: number): Promise<void> {
  const { server } = listener;
  const closed = new Promise<void>((resolve) => {
    server.close(() => {
      resolve();
    });
  });
  // A keep-alive connection that finishes its request after close() would otherwise stay open.
  const idleSweep = setInterval(() => {
    server.closeIdleConnections();
  }, IDLE_SWEEP_MS);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  server.closeIdleConnections();
  await Promise.race([closed, late]);
  clearInterval(idleSweep);
  clearTimeout(timer);
  server.closeAllConnections();
  await closed;
}
