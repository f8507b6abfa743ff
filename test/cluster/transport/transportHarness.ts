import { EventEmitter, once } from 'node:events';
import { Actor } from '../../../actors/runtime/Actor.js';
import type { ActorContext } from '../../../actors/runtime/ActorContext.js';
import { ActorHost, type ActorFactory } from '../../../actors/runtime/ActorHost.js';
import { ActorSystem, type ActorKind } from '../../../cluster/ActorSystem.js';
import { HashRing } from '../../../cluster/ring/HashRing.js';
import { GrpcTransport } from '../../../cluster/transport/GrpcTransport.js';
import { startNodeServer, type NodeServer } from '../../../cluster/transport/GrpcServer.js';
import type { RemoteTransport } from '../../../cluster/transport/RemoteTransport.js';
import type { ChannelCommand, ChannelReply } from '../../../proto/gen/chorus/v1/channel.js';
import type { DispatchEvent } from '../../../proto/gen/chorus/v1/common.js';
import type { SessionCommand, SessionReply } from '../../../proto/gen/chorus/v1/session.js';
import { systemClock } from '../../../src/domain/Clock.js';
import { UnknownEntityError, ValidationError } from '../../../src/domain/errors.js';
import { createLogger, type Logger } from '../../../src/domain/Logger.js';
import { SnowflakeGenerator } from '../../../src/domain/snowflake.js';

export const HOST = '127.0.0.1';

/** A logger that drops output but emits every warn/error event, so tests can await one. */
export function recordingLogger(): Logger & { readonly events: EventEmitter } {
  const events = new EventEmitter();
  const silent = createLogger('silent');
  return {
    events,
    info: () => undefined,
    warn: (event, fields) => events.emit(event, fields),
    error: (event, fields) => events.emit(event, fields),
    child: () => silent,
  };
}

/** Hangs of the `slow` echo command, released in `after` so no turn outlives the test. */
export const hanging: (() => void)[] = [];

/** A channel actor stub: echoes where it ran, or throws what the body names. */
class EchoChannel extends Actor<ChannelCommand, ChannelReply> {
  constructor(private readonly ctx: ActorContext) {
    super();
  }

  override async handle({ command }: ChannelCommand): Promise<ChannelReply> {
    const body = command?.$case === 'getChannel' ? command.getChannel.body : '';
    switch (body) {
      case 'invalid':
        throw ValidationError.field('content', 'BASE_TYPE_REQUIRED', 'This field is required');
      case 'unknown':
        throw new UnknownEntityError('message');
      case 'bug':
        throw new TypeError('not an AppError');
      case 'slow':
        await new Promise<void>((resolve) => hanging.push(resolve));
        break;
    }
    const json = JSON.stringify({ node: this.ctx.nodeId, key: this.ctx.key, body });
    return { reply: { $case: 'json', json: { json } } };
  }
}

/** One dispatch a session stub received. */
export interface Received {
  readonly node: string;
  readonly session: string;
  readonly event: DispatchEvent;
}

/** A session actor stub: records dispatches, answers everything else with empty. */
class RecordingSession extends Actor<SessionCommand, SessionReply> {
  constructor(
    private readonly ctx: ActorContext,
    private readonly sink: (received: Received) => void,
  ) {
    super();
  }

  override canPassivate(): boolean {
    return false;
  }

  handle({ command }: SessionCommand): Promise<SessionReply> {
    if (command?.$case === 'dispatch')
      this.sink({ node: this.ctx.nodeId, session: this.ctx.key, event: command.dispatch });
    return Promise.resolve({ reply: { $case: 'empty', empty: {} } });
  }
}

/** Calls counted per method, around a real transport. */
export interface CountingTransport extends RemoteTransport {
  readonly calls: { ask: number; tell: number; fanOut: number; pushFrames: number };
}

function counting(inner: RemoteTransport): CountingTransport {
  const calls = { ask: 0, tell: 0, fanOut: 0, pushFrames: 0 };
  return {
    calls,
    ask(nodeId, kind, key, command, deadlineMs) {
      calls.ask += 1;
      return inner.ask(nodeId, kind, key, command, deadlineMs);
    },
    tell(nodeId, kind, key, command) {
      calls.tell += 1;
      inner.tell(nodeId, kind, key, command);
    },
    fanOut(nodeId, sessionIds, event) {
      calls.fanOut += 1;
      inner.fanOut(nodeId, sessionIds, event);
    },
    pushFrames(nodeId, socketId, frames, closeCode) {
      calls.pushFrames += 1;
      inner.pushFrames(nodeId, socketId, frames, closeCode);
    },
  };
}

/** One frame batch an edge sink received. */
export interface EdgeBatch {
  readonly socketId: string;
  readonly frames: readonly string[];
  readonly closeCode: number;
}

/** A node of the test cluster: real ActorSystem, ActorHost, gRPC server and transport; stub actors. */
export interface TestNode {
  readonly id: string;
  readonly port: number;
  readonly system: ActorSystem;
  readonly host: ActorHost;
  readonly transport: GrpcTransport;
  readonly counted: CountingTransport;
  readonly server: NodeServer;
  readonly log: ReturnType<typeof recordingLogger>;
  /** Emits 'dispatch' (Received) and 'frames' (EdgeBatch). */
  readonly events: EventEmitter;
  readonly dispatched: Received[];
  readonly frames: EdgeBatch[];
}

function factoryFor(sink: (received: Received) => void): ActorFactory {
  const build = (kind: ActorKind, _key: string, ctx: ActorContext): Actor<unknown, unknown> => {
    if (kind === 'channel') return new EchoChannel(ctx);
    if (kind === 'session') return new RecordingSession(ctx, sink);
    throw new Error(`no stub actor for ${kind}`);
  };
  return build as unknown as ActorFactory;
}

/** Starts `count` nodes on 127.0.0.1:0, all routing by one ring of the three ids. */
export async function startCluster(
  count: number,
  incarnation = Date.now(),
): Promise<{ nodes: TestNode[]; ring: HashRing }> {
  const logs = Array.from({ length: count }, () => recordingLogger());
  const servers = await Promise.all(logs.map((log) => startNodeServer({ host: HOST, port: 0, log })));
  const ids = servers.map((server) => `${HOST}:${server.port}@${incarnation}`);
  const ring = new HashRing({ version: 1, members: ids });
  const nodes = servers.map((server, index): TestNode => {
    const id = ids[index]!;
    const log = logs[index]!;
    const events = new EventEmitter();
    const dispatched: Received[] = [];
    const frames: EdgeBatch[] = [];
    const transport = new GrpcTransport({ log, ringVersion: () => system.ringVersion });
    const counted = counting(transport);
    const system = new ActorSystem(id, ring, { askDeadlineMs: 5_000, vnodesPerNode: 128 }, log, counted);
    const host = new ActorHost({
      nodeId: id,
      factory: factoryFor((received) => {
        dispatched.push(received);
        events.emit('dispatch', received);
      }),
      messenger: system,
      clock: systemClock,
      log,
      ids: new SnowflakeGenerator(index),
      options: { mailboxCapacity: 1_000, idleTimeoutMs: 60_000 },
    });
    system.bindHost(host);
    system.bindEdge((socketId, batch, closeCode) => {
      const received = { socketId, frames: [...batch], closeCode };
      frames.push(received);
      events.emit('frames', received);
    });
    server.serve(system);
    return { id, port: server.port, system, host, transport, counted, server, log, events, dispatched, frames };
  });
  return { nodes, ring };
}

/** Stops every node. */
export async function stopCluster(nodes: readonly TestNode[]): Promise<void> {
  for (const release of hanging.splice(0)) release();
  for (const node of nodes) node.transport.close();
  await Promise.all(nodes.map((node) => node.server.close(0)));
  await Promise.all(nodes.map((node) => node.host.shutdown()));
}

/** The first key `prefix<n>` of `kind` that `ring` places on `nodeId`. */
export function keyOwnedBy(ring: HashRing, kind: ActorKind, nodeId: string, prefix = 'k', skip = 0): string {
  let found = 0;
  for (let index = 0; index < 100_000; index += 1) {
    const key = `${prefix}${index}`;
    if (ring.ownerOf(`${kind}:${key}`) === nodeId && found++ === skip) return key;
  }
  throw new Error(`no ${kind} key of ${nodeId} among 100000 candidates`);
}

/** Resolves when `emitter` has emitted `event` until `done()` holds; rejects naming `what` after `timeoutMs`. */
export async function until(
  emitter: EventEmitter,
  event: string,
  done: () => boolean,
  what: string,
  timeoutMs = 5_000,
): Promise<void> {
  const signal = AbortSignal.timeout(timeoutMs);
  while (!done()) {
    try {
      await once(emitter, event, { signal });
    } catch {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    }
  }
}
