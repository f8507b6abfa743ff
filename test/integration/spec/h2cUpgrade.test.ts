import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { startTestServer, type TestServer } from '../../support/testServer.js';
import { GatewayClient } from '../users/gatewayClient.js';

/** The upgrade headers the JDK's HttpClient (HTTP/2 preferred) puts on every http:// request, as captured. */
const JDK_UPGRADE =
  'Connection: Upgrade, HTTP2-Settings\r\n' +
  'HTTP2-Settings: AAEAAEAAAAIAAAAAAAMAAAAAAAQBAAAAAAUAAEAAAAYABgAA\r\n' +
  'Upgrade: h2c\r\n' +
  'User-Agent: Java-http-client/17.0.15\r\n';

const JAVA_CLIENT = join(dirname(fileURLToPath(import.meta.url)), 'h2c', 'JdkHttpClient.java');

/** A raw connection that collects what the server writes and waits for a number of complete responses. */
class RawConnection {
  #received = '';
  #closed = false;
  #wake: (() => void) | undefined;

  private constructor(private readonly socket: Socket) {
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      this.#received += chunk;
      this.#wake?.();
    });
    socket.on('close', () => {
      this.#closed = true;
      this.#wake?.();
    });
  }

  static async open(port: number): Promise<RawConnection> {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve).once('error', reject);
    });
    return new RawConnection(socket);
  }

  write(text: string): void {
    this.socket.write(text, 'latin1');
  }

  /** The first `count` responses (status line and body), once they all arrived. */
  async responses(count: number): Promise<{ status: number; body: string }[]> {
    for (;;) {
      const parsed = parseResponses(this.#received);
      if (parsed.length >= count) return parsed.slice(0, count);
      if (this.#closed) throw new Error(`closed after ${parsed.length} of ${count} responses: ${this.#received}`);
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  close(): void {
    this.socket.destroy();
  }
}

/** Complete responses in `text` (every answer of these routes has a Content-Length). */
function parseResponses(text: string): { status: number; body: string }[] {
  const out: { status: number; body: string }[] = [];
  let rest = text;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) return out;
    const head = rest.slice(0, end);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    if (rest.length < end + 4 + length) return out;
    out.push({ status: Number(head.split(' ')[1]), body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
}

describe('requests asking to upgrade to h2c', () => {
  let server: TestServer;
  let port: number;
  let serial = 0;
  const registration = () => {
    serial += 1;
    const name = `jdk${serial}${Date.now()}`;
    return JSON.stringify({
      username: name,
      password: 'correct horse battery',
      email: `${name}@example.test`,
      consent: true,
    });
  };

  before(async () => {
    server = await startTestServer();
    port = Number(new URL(server.node.url).port);
  });
  after(async () => server.stop());

  it('answers a GET as plain HTTP/1.1, ignoring the upgrade', async () => {
    const connection = await RawConnection.open(port);
    try {
      connection.write(
        `GET /api/v10/gateway HTTP/1.1\r\nContent-Length: 0\r\nHost: 127.0.0.1:${port}\r\n${JDK_UPGRADE}\r\n`,
      );
      const [answer] = await connection.responses(1);
      assert.equal(answer?.status, 200);
      assert.match((JSON.parse(answer?.body ?? '{}') as { url: string }).url, /^ws:\/\//);
    } finally {
      connection.close();
    }
  });

  it('reads the JSON body of a POST sent after its head, then serves the next request on the connection', async () => {
    const connection = await RawConnection.open(port);
    try {
      const body = registration();
      const head =
        `POST /api/v10/auth/register HTTP/1.1\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Host: 127.0.0.1:${port}\r\n${JDK_UPGRADE}Content-Type: application/json\r\n\r\n`;
      // As the JDK does: the head in one write, the body in the next.
      connection.write(head);
      connection.write(body.slice(0, 10));
      connection.write(body.slice(10));
      const [registered] = await connection.responses(1);
      assert.equal(registered?.status, 200, registered?.body);
      const { token } = JSON.parse(registered?.body ?? '{}') as { token: string };
      connection.write(
        `GET /api/v10/users/@me HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: ${token}\r\n${JDK_UPGRADE}\r\n`,
      );
      const [, me] = await connection.responses(2);
      assert.equal(me?.status, 200, me?.body);
      assert.match(me?.body ?? '', /"username":"jdk/);
    } finally {
      connection.close();
    }
  });

  it('answers pipelined requests in order when an upgrade request follows a plain one', async () => {
    const connection = await RawConnection.open(port);
    try {
      connection.write(
        `GET /api/v10/ping HTTP/1.1\r\nHost: a\r\n\r\n` +
          `GET /api/v10/gateway HTTP/1.1\r\nHost: a\r\n${JDK_UPGRADE}\r\n` +
          `GET /api/v10/ping HTTP/1.1\r\nHost: a\r\n${JDK_UPGRADE}\r\n`,
      );
      const answers = await connection.responses(3);
      assert.deepEqual(
        answers.map((answer) => answer.status),
        [200, 200, 200],
      );
      assert.match(answers[1]?.body ?? '', /"url":"ws:/);
      assert.match(answers[2]?.body ?? '', /pong/);
    } finally {
      connection.close();
    }
  });

  it('still takes WebSocket upgrades for the gateway', async () => {
    const registered = (await (
      await fetch(`${server.api}/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: registration(),
      })
    ).json()) as { token: string };
    const gateway = await GatewayClient.connect(server.gatewayUrl, registered.token);
    gateway.close();
  });

  it("serves the JDK's own HttpClient (GET, and POST with a JSON body)", async function () {
    this.timeout(60_000);
    const { stdout } = await promisify(execFile)('java', [JAVA_CLIENT, server.api, registration()], {
      timeout: 50_000,
    });
    const [get, post] = stdout.trim().split('\n');
    assert.match(get ?? '', /^HTTP_1_1 200 \{"url":"ws:/);
    assert.match(post ?? '', /^HTTP_1_1 200 \{"token":"/);
  });
});
