import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { WebSocket } from 'ws';
import type { ActorSystem } from '../../../cluster/ActorSystem.js';
import type { SessionCommand } from '../../../proto/gen/chorus/v1/session.js';
import { ServiceUnavailableError, UnauthorizedError, UnknownEntityError } from '../../../src/domain/errors.js';
import { createLogger } from '../../../src/domain/Logger.js';
import { signToken } from '../../../src/domain/tokens.js';
import { GatewayConnection } from '../../../src/gateway/GatewayConnection.js';
import { SessionStarter } from '../../../src/gateway/SessionStarter.js';
import { InMemoryRateLimiter, type RateLimiter } from '../../../src/http/RateLimiter.js';

/** The parts of a `ws` socket a connection uses, recording what it is asked to do. */
class FakeSocket extends EventEmitter {
  readyState: number = WebSocket.OPEN;
  bufferedAmount = 0;
  readonly sent: string[] = [];
  /** The connection under the socket, and whether it was corked as each frame was sent. */
  readonly wire = new PassThrough();
  readonly sentCorked: boolean[] = [];
  closedWith: number | undefined;
  send(data: string | Buffer): void {
    this.sent.push(data.toString());
    this.sentCorked.push(this.wire.writableCorked > 0);
  }
  close(code: number): void {
    this.closedWith = code;
    this.readyState = WebSocket.CLOSING;
    queueMicrotask(() => {
      this.peerClosed(code);
    });
  }
  terminate(): void {
    this.peerClosed(1006);
  }
  /** The close as the server sees it. */
  peerClosed(code: number): void {
    if (this.readyState === WebSocket.CLOSED) return;
    this.readyState = WebSocket.CLOSED;
    this.emit('close', code, Buffer.alloc(0));
  }
  /** A client message arriving. */
  receive(payload: unknown): void {
    this.emit('message', Buffer.from(JSON.stringify(payload)), false);
  }
  ops(): number[] {
    return this.sent.map((frame) => (JSON.parse(frame) as { op: number }).op);
  }
}

/** An ActorSystem whose User actors accept every token and whose Session actors answer as scripted; tells are recorded. */
function fakeSystem(identify: () => Promise<unknown> = () => Promise.resolve({})): {
  system: ActorSystem;
  told: SessionCommand[];
  userAsks: () => number;
} {
  const told: SessionCommand[] = [];
  let userAsks = 0;
  const system = {
    nodeId: 'node@1',
    ask: (kind: string) => {
      if (kind !== 'user') return identify();
      userAsks += 1;
      return Promise.resolve({
        reply: { $case: 'authenticated', authenticated: { caller: { userId: '42', bot: true } } },
      });
    },
    tell: (_kind: string, _key: string, command: SessionCommand) => told.push(command),
  } as unknown as ActorSystem;
  return { system, told, userAsks: () => userAsks };
}

const OPTIONS = {
  heartbeatIntervalMs: 1_000,
  resumeWindowMs: 1_000,
  resumeBufferSize: 10,
  maxConcurrency: 1,
  identifyWindowMs: 5_000,
  sessionStartLimit: 10,
  identifyTimeoutMs: 1_000,
};
const SECRET = 'gateway-test-secret';
/** A token of user 42, signed with the starter's key. */
const TOKEN = signToken(SECRET, { userId: '42', generation: 0, issuedAtMs: 0 });
const IDENTIFY = { op: 2, d: { token: TOKEN, properties: { os: 'x' } } };
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function connect(
  system: ActorSystem,
  limiter: RateLimiter = new InMemoryRateLimiter(),
): { socket: FakeSocket; connection: GatewayConnection } {
  const socket = new FakeSocket();
  const log = createLogger('silent');
  const starter = new SessionStarter({ system, options: OPTIONS, limiter, log, tokenSecret: SECRET });
  const deps = { system, options: OPTIONS, log, starter, release: () => undefined, framesIn: { inc: () => undefined } };
  const connection = new GatewayConnection(
    socket as unknown as WebSocket,
    socket.wire,
    'sock1',
    { version: 10, encoding: 'json', compress: 'none' },
    deps,
  );
  return { socket, connection };
}

function detachOf(told: SessionCommand[]): { socketId: string; invalidate: boolean } | undefined {
  const found = told.find((command) => command.command?.$case === 'detach')?.command;
  return found?.$case === 'detach' ? found.detach : undefined;
}

describe('GatewayConnection', () => {
  it('greets with Hello', () => {
    const { socket } = connect(fakeSystem().system);
    assert.deepEqual(JSON.parse(socket.sent[0] ?? ''), {
      op: 10,
      d: { heartbeat_interval: 1_000 },
      s: null,
      t: null,
    });
  });

  it('writes frames pushed together with their connection corked, so they leave in one write; a lone frame at once', async () => {
    const { socket, connection } = connect(fakeSystem().system);
    socket.receive(IDENTIFY);
    await settle();
    connection.push(['{"op":0,"t":"READY","s":1,"d":{}}', '{"op":0,"t":"READY_SUPPLEMENTAL","s":2,"d":{}}'], 0);
    connection.push(['{"op":0,"t":"X","s":3,"d":{}}'], 0);
    assert.deepEqual(socket.sentCorked, [false, true, true, false], 'Hello, the pair, the lone frame');
    assert.equal(socket.wire.writableCorked, 0, 'uncorked after the pair');
  });

  it('moves a client that reads too slowly with op 7 and close 4000, keeping its session resumable', async () => {
    const { system, told } = fakeSystem();
    const { socket, connection } = connect(system);
    socket.receive(IDENTIFY);
    await settle();
    socket.bufferedAmount = 9 * 1024 * 1024;
    connection.push(['{"op":0,"t":"X","s":2,"d":{}}'], 0);
    assert.deepEqual(socket.ops(), [10, 7]);
    assert.equal(socket.closedWith, 4000);
    await settle();
    assert.deepEqual(detachOf(told), { socketId: 'sock1', invalidate: false });
  });

  it('ends the session when the client closes with 1000', async () => {
    const { system, told } = fakeSystem();
    const { socket } = connect(system);
    socket.receive(IDENTIFY);
    await settle();
    socket.peerClosed(1000);
    assert.deepEqual(detachOf(told), { socketId: 'sock1', invalidate: true });
  });

  it('keeps the session when the connection is lost', async () => {
    const { system, told } = fakeSystem();
    const { socket } = connect(system);
    socket.receive(IDENTIFY);
    await settle();
    socket.peerClosed(1006);
    assert.deepEqual(detachOf(told), { socketId: 'sock1', invalidate: false });
  });

  it('ends the session after a close the client answers by identifying anew (4005)', async () => {
    const { system, told } = fakeSystem();
    const { socket } = connect(system);
    socket.receive(IDENTIFY);
    await settle();
    socket.receive(IDENTIFY);
    await settle();
    assert.equal(socket.closedWith, 4005);
    assert.deepEqual(detachOf(told), { socketId: 'sock1', invalidate: true });
  });

  it('closes 4004 when the session refuses the token, and tells no detach', async () => {
    const { system, told } = fakeSystem(() => Promise.reject(new UnauthorizedError()));
    const { socket } = connect(system);
    socket.receive(IDENTIFY);
    await settle();
    assert.equal(socket.closedWith, 4004);
    await settle();
    assert.equal(detachOf(told), undefined);
  });

  it('closes 4004 for a token whose signature is wrong, without asking any actor', async () => {
    const { system, userAsks } = fakeSystem();
    const { socket } = connect(system);
    socket.receive({ op: 2, d: { token: `${Buffer.from('42').toString('base64url')}.b.c`, properties: { os: 'x' } } });
    await settle();
    assert.equal(socket.closedWith, 4004);
    assert.equal(userAsks(), 0);
  });

  it('answers a second Identify of the user in the same bucket and window with op 9 d:false, starting nothing', async () => {
    const limiter = new InMemoryRateLimiter();
    let identifies = 0;
    const { system } = fakeSystem(() => {
      identifies += 1;
      return Promise.resolve({});
    });
    connect(system, limiter).socket.receive(IDENTIFY);
    await settle();
    const { socket } = connect(system, limiter);
    socket.receive(IDENTIFY);
    await settle();
    assert.equal(identifies, 1);
    assert.deepEqual(
      socket.sent.slice(1).map((frame) => JSON.parse(frame) as unknown),
      [{ op: 9, d: false, s: null, t: null }],
    );
    assert.equal(socket.closedWith, undefined);
  });

  it('forwards session ops with their d as JSON', async () => {
    const { system, told } = fakeSystem();
    const { socket } = connect(system);
    socket.receive(IDENTIFY);
    await settle();
    socket.receive({ op: 8, d: { guild_id: '1', limit: 0 } });
    socket.receive({ op: 40, d: {} }); // a user-client op Chorus ignores
    assert.deepEqual(
      told.map((command) => command.command),
      [{ $case: 'clientOp', clientOp: { op: 8, dataJson: '{"guild_id":"1","limit":0}' } }],
    );
  });

  it('answers a resume its session cannot take yet with op 7 and close 4000, not op 9', async () => {
    const { system, told } = fakeSystem(() => Promise.reject(new ServiceUnavailableError('lease still held')));
    const { socket } = connect(system);
    socket.receive({ op: 6, d: { token: 'a.b.c', session_id: 'a'.repeat(32), seq: 3 } });
    await settle();
    assert.deepEqual(socket.ops(), [10, 7]);
    assert.equal(socket.closedWith, 4000);
    await settle();
    assert.equal(detachOf(told), undefined, 'the session is not this socket’s: nothing to detach');
  });

  it('answers a resume of an unknown session with op 9 d:false and keeps the socket', async () => {
    const { system } = fakeSystem(() => Promise.reject(new UnknownEntityError('session')));
    const { socket } = connect(system);
    socket.receive({ op: 6, d: { token: 'a.b.c', session_id: 'a'.repeat(32), seq: 3 } });
    await settle();
    assert.deepEqual(
      socket.sent.slice(1).map((frame) => JSON.parse(frame) as unknown),
      [{ op: 9, d: false, s: null, t: null }],
    );
    assert.equal(socket.closedWith, undefined);
  });

  it('closes 4009 once no heartbeat came within one and a half intervals', () => {
    const { socket, connection } = connect(fakeSystem().system);
    connection.checkHeartbeat(Date.now() + 1_400);
    assert.equal(socket.closedWith, undefined);
    connection.checkHeartbeat(Date.now() + 1_600);
    assert.equal(socket.closedWith, 4009);
  });

  it('closes 4003 a socket without a session once the Identify timeout passed, heartbeats or not', () => {
    const { socket, connection } = connect(fakeSystem().system);
    socket.receive({ op: 1, d: null });
    connection.checkIdentified(Date.now() + 900);
    assert.equal(socket.closedWith, undefined);
    connection.checkIdentified(Date.now() + 1_100);
    assert.equal(socket.closedWith, 4003);
  });

  it('leaves an identified socket open past the Identify timeout', async () => {
    const { socket, connection } = connect(fakeSystem().system);
    socket.receive(IDENTIFY);
    await settle();
    connection.checkIdentified(Date.now() + 5_000);
    assert.equal(socket.closedWith, undefined);
  });
});
