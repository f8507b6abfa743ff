import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import Koa from 'koa';
import { createLogger } from '../../../src/domain/Logger.js';
import { errorMiddleware } from '../../../src/http/errorMiddleware.js';
import { readBody } from '../../../src/http/readBody.js';

const MAX_BYTES = 1_024;

/** A response read off a raw socket: its status, headers (names lower-cased) and body. */
interface RawResponse {
  status: number;
  headers: Map<string, string>;
  body: string;
}

function parseResponse(raw: string): RawResponse {
  const split = raw.indexOf('\r\n\r\n');
  assert.ok(split > 0, `no response head in ${JSON.stringify(raw.slice(0, 200))}`);
  const [statusLine = '', ...lines] = raw.slice(0, split).split('\r\n');
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: raw.slice(split + 4) };
}

/** One chunk of a chunked body. */
const chunk = (data: string): string => `${Buffer.byteLength(data).toString(16)}\r\n${data}\r\n`;

describe('readBody: a body that grows past the limit while read', () => {
  let server: Server;
  let port: number;

  before(async () => {
    const app = new Koa();
    app.use(errorMiddleware(createLogger('silent')));
    app.use(readBody(MAX_BYTES));
    app.use((ctx) => {
      ctx.body = { got: (ctx.request as { body?: unknown }).body };
    });
    server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.close();
    server.closeAllConnections();
    await once(server, 'close');
  });

  /**
   * Opens a raw socket, writes `request` (a head and the start of a body), and collects everything the server sends
   * until the socket closes. `keepStreaming` writes a further chunk each time the server's answer is seen, as a client that does
   * not listen would, until the socket closes. Resolves with the text received, and whether the server ended the connection (not the 5 s timeout).
   */
  async function exchange(request: string, keepStreaming: boolean): Promise<{ raw: string; closedByServer: boolean }> {
    const socket = net.connect(port, '127.0.0.1');
    await once(socket, 'connect');
    let raw = '';
    let serverEnded = false;
    socket.setEncoding('utf8');
    socket.on('data', (data: string) => {
      raw += data;
      if (keepStreaming && !socket.destroyed && socket.writable) socket.write(chunk('y'.repeat(512)));
    });
    socket.on('end', () => {
      serverEnded = true;
    });
    // A write after the server closed may fail (EPIPE/ECONNRESET): the close is what is awaited.
    socket.on('error', () => undefined);
    const closed = once(socket, 'close');
    socket.write(request);
    const timeout = setTimeout(() => socket.destroy(new Error('server did not close the connection')), 5_000);
    await closed;
    clearTimeout(timeout);
    return { raw, closedByServer: serverEnded };
  }

  const head = [
    'POST /anything HTTP/1.1',
    'Host: 127.0.0.1',
    'Content-Type: application/json',
    'Transfer-Encoding: chunked',
    'Connection: keep-alive',
    '',
    '',
  ].join('\r\n');

  it('answers a chunked body over the limit with the Discord-shaped 413 and closes the connection', async () => {
    // Never terminated (no 0-length chunk): the server must answer without waiting for the end.
    const { raw, closedByServer } = await exchange(head + chunk(`"${'x'.repeat(MAX_BYTES * 2)}"`), false);
    const response = parseResponse(raw);
    assert.equal(response.status, 413, raw.slice(0, 300));
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.equal(response.headers.get('connection'), 'close');
    assert.deepEqual(JSON.parse(response.body), { message: 'Request entity too large', code: 40_005 });
    assert.ok(closedByServer, 'the server ended the connection after its 413');
  });

  it('disconnects a client that keeps streaming after the 413', async () => {
    const { raw, closedByServer } = await exchange(head + chunk('x'.repeat(MAX_BYTES + 1)), true);
    assert.equal(parseResponse(raw).status, 413, raw.slice(0, 300));
    assert.ok(closedByServer, 'the server ended the connection after its 413');
  });

  it('still reads a chunked body within the limit, on a connection kept open', async () => {
    const socket = net.connect(port, '127.0.0.1');
    await once(socket, 'connect');
    socket.setEncoding('utf8');
    let raw = '';
    const answered = new Promise<void>((resolve) => {
      socket.on('data', (data: string) => {
        raw += data;
        const split = raw.indexOf('\r\n\r\n');
        const length = split < 0 ? NaN : Number(parseResponse(raw).headers.get('content-length'));
        if (split >= 0 && Buffer.byteLength(raw.slice(split + 4)) >= length) resolve();
      });
    });
    socket.write(`${head}${chunk('{"a":')}${chunk('1}')}0\r\n\r\n`);
    await answered;
    const response = parseResponse(raw);
    assert.equal(response.status, 200, raw.slice(0, 300));
    assert.deepEqual(JSON.parse(response.body), { got: { a: 1 } });
    assert.notEqual(response.headers.get('connection'), 'close');
    assert.ok(!socket.destroyed);
    socket.destroy();
  });
});
