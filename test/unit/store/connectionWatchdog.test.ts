import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { createLogger } from '../../../src/domain/Logger.js';
import { connectRedis, type RedisConnection } from '../../../src/store/redis/connectRedis.js';
import { watchConnection, type WatchedClient } from '../../../src/store/redis/connectionWatchdog.js';

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
});

/** A client as the watchdog sees it: always ready, its PING never answered; `reconnected` settles on connect(). */
class StandInClient extends EventEmitter implements WatchedClient {
  readonly isReady = true;
  destroyed = 0;
  #reconnect: () => void = () => undefined;
  readonly reconnected = new Promise<void>((resolve) => {
    this.#reconnect = resolve;
  });
  ping(): Promise<unknown> {
    return new Promise(() => undefined);
  }
  destroy(): void {
    this.destroyed += 1;
    this.emit('end'); // as node-redis does, synchronously
  }
  connect(): Promise<unknown> {
    this.#reconnect();
    return Promise.resolve();
  }
}

describe('watchConnection', () => {
  const setIntervalBefore = globalThis.setInterval;
  const clearIntervalBefore = globalThis.clearInterval;
  let armed: NodeJS.Timeout[] = [];
  let cleared: unknown[] = [];

  beforeEach(() => {
    armed = [];
    cleared = [];
    globalThis.setInterval = (...args: Parameters<typeof setInterval>) => {
      const timer = setIntervalBefore(...args);
      armed.push(timer);
      return timer;
    };
    globalThis.clearInterval = (timer?: Parameters<typeof clearInterval>[0]) => {
      cleared.push(timer);
      clearIntervalBefore(timer);
    };
  });

  afterEach(() => {
    globalThis.setInterval = setIntervalBefore;
    globalThis.clearInterval = clearIntervalBefore;
    for (const timer of armed) clearIntervalBefore(timer);
  });

  it("stops its timer when the client's owner closes it (no reconnect behind its back)", () => {
    const client = new StandInClient();
    watchConnection(client, { intervalMs: 60_000, deadlineMs: 60_000, onHung: () => undefined });
    assert.equal(armed.length, 1, 'one probe timer per connection');
    assert.equal(cleared.length, 0);
    client.emit('end');
    assert.equal(cleared.length, 1);
    assert.equal(cleared[0], armed[0], 'the probe timer is the one cleared');
  });

  it("keeps watching after the 'end' of its own destroy of a hung connection", async () => {
    const client = new StandInClient();
    const hung: Error[] = [];
    watchConnection(client, { intervalMs: 5, deadlineMs: 5, onHung: (error) => hung.push(error) });
    await client.reconnected;
    assert.equal(hung.length, 1);
    assert.equal(client.destroyed, 1);
    assert.equal(cleared.length, 0, 'the probe timer still runs');
  });
});
