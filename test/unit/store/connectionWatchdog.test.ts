import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { createLogger } from '../../../src/domain/Logger.js';
import { connectRedis, type RedisConnection } from '../../../src/store/redis/connectRedis.js';

/**
 * A server speaking just enough RESP: `+OK` to every command until `hang` is set, then nothing, as a
 * Redis that stopped answering without closing its connections. Commands are counted by their array
 * headers (the test's arguments never start a line with `*`).
 */
class HangingServer {
  hang = false;
  connections = 0;
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();

  constructor() {
    this.#server = createServer((socket) => {
      this.connections += 1;
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
      socket.on('error', () => undefined);
      socket.on('data', (chunk) => {
        if (this.hang) return;
        const commands = chunk
          .toString('latin1')
          .split('\r\n')
          .filter((line) => line.startsWith('*')).length;
        socket.write('+OK\r\n'.repeat(commands));
      });
    });
  }

  async listen(): Promise<string> {
    this.#server.listen(0, '127.0.0.1');
    await once(this.#server, 'listening');
    return `redis://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  close(): void {
    for (const socket of this.#sockets) socket.destroy();
    this.#server.close();
  }
}

describe('connectRedis watchdog (no per-command timeout)', () => {
  const server = new HangingServer();
  let redis: RedisConnection | undefined;
  let url = '';

  before(async () => {
    url = await server.listen();
  });

  after(() => {
    redis?.destroy();
    server.close();
  });

  it('fails a command waiting on a connection that stopped answering, then connects again', async () => {
    redis = await connectRedis(url, createLogger('silent'), { commandTimeoutMs: 100 });
    assert.equal(await redis.set('k', 'v'), 'OK');
    server.hang = true;
    const sentAt = performance.now();
    await assert.rejects(redis.get('k'), 'the command waiting on the hung connection fails');
    const failedAfterMs = performance.now() - sentAt;
    assert.ok(failedAfterMs < 1_000, `failed after ${Math.round(failedAfterMs)} ms, bound about 2 x 100 ms`);
    server.hang = false;
    await once(redis, 'ready');
    assert.equal(server.connections, 2, 'the watchdog opened a new connection');
    assert.equal(await redis.set('k', 'v'), 'OK');
  });

  it('arms no timer per command (node-redis would, with its 5 s default command timeout)', async () => {
    const own = await connectRedis(url, createLogger('silent'));
    const armed = AbortSignal.timeout.bind(AbortSignal);
    let timers = 0;
    AbortSignal.timeout = (ms: number) => {
      timers += 1;
      return armed(ms);
    };
    try {
      for (let i = 0; i < 5; i += 1) await own.set('k', 'v');
    } finally {
      AbortSignal.timeout = armed;
      own.destroy();
    }
    assert.equal(timers, 0);
  });

  it('stops with a client its owner destroyed (no reconnect behind its back)', async () => {
    const before = server.connections;
    const own = await connectRedis(url, createLogger('silent'), { commandTimeoutMs: 50 });
    own.destroy();
    // An absence cannot be awaited: four watchdog periods in which no new connection may be opened.
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(own.isOpen, false);
    assert.equal(server.connections, before + 1);
  });
});
