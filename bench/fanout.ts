import WebSocket from 'ws';
import { cpuMs, summarize } from './stats.js';

/** What a fan-out run measured: POST → delivery latency over every (socket, message) pair. */
export interface FanoutResult {
  readonly sessions: number;
  readonly p50: number;
  readonly p99: number;
  readonly deliveries: number;
  readonly missing: number;
}

/** A connected socket that reports each MESSAGE_CREATE's content to `onMessage`. */
export interface BenchSocket {
  close(): void;
}

const CONTENT = /"content":"(fan [0-9]+)"/;

/**
 * Opens a gateway socket; with a token it identifies (Chorus) and resolves on READY, else on open. With
 * `lookAtGuild` the session sends op 14 for that guild after READY, as a client showing it does: in a large
 * guild only such active sessions (and bots, and the users a message names) get every message.
 * Closing sends 1000, which ends the session at once (rather than leaving it to its resume window).
 */
export function openSocket(
  url: string,
  token: string | undefined,
  onMessage: (content: string) => void,
  lookAtGuild?: string,
): Promise<BenchSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    let heartbeat: NodeJS.Timeout | undefined;
    socket.once('error', reject);
    socket.on('message', (data: Buffer) => {
      const text = data.toString();
      // Only MESSAGE_CREATE frames are inspected, and by a regex: the clients share the cores with the server.
      if (text.includes('"MESSAGE_CREATE"')) {
        const content = CONTENT.exec(text)?.[1];
        if (content !== undefined) onMessage(content);
        return;
      }
      const frame = JSON.parse(text) as { op: number; t?: string; d?: { heartbeat_interval?: number } };
      if (frame.op === 10) {
        const every = frame.d?.heartbeat_interval ?? 41_250;
        heartbeat = setInterval(() => {
          socket.send('{"op":1,"d":null}');
        }, every);
        heartbeat.unref();
        if (token === undefined) {
          resolve({
            close: () => {
              socket.close();
            },
          });
        } else {
          socket.send(
            JSON.stringify({
              op: 2,
              d: {
                token,
                intents: (1 << 0) | (1 << 9) | (1 << 15),
                properties: { os: 'linux', browser: 'bench', device: 'bench' },
              },
            }),
          );
        }
      } else if (frame.t === 'READY') {
        if (lookAtGuild !== undefined) {
          socket.send(JSON.stringify({ op: 14, d: { guild_id: lookAtGuild, typing: true, activities: true } }));
        }
        resolve({
          close: () => {
            clearInterval(heartbeat);
            socket.close(1000);
          },
        });
      }
    });
  });
}

/**
 * Sends `messages` POSTs one after another (each waits until every socket got the previous one or
 * `timeoutMs` passed) and records, per socket, the time from the POST to its MESSAGE_CREATE. `hooks.warmUp` more
 * are sent first and not recorded: the first fan-outs of a process also time its JIT compiling the path.
 */
export async function measureFanout(
  sessions: number,
  connect: (onMessage: (content: string) => void) => Promise<BenchSocket[]>,
  send: (content: string) => Promise<void>,
  messages: number,
  timeoutMs = 10_000,
  /** `latencies` collects the raw samples (to pool several runs); `beforeClose` runs after the last message. */
  hooks: { latencies?: number[]; beforeClose?: () => Promise<void>; warmUp?: number } = {},
): Promise<FanoutResult> {
  const latencies = hooks.latencies ?? [];
  const sentAt = new Map<string, number>();
  const received = new Map<string, number>();
  let waiter: (() => void) | undefined;
  const sockets = await connect((content) => {
    const t0 = sentAt.get(content);
    if (t0 === undefined) return;
    if (!content.startsWith('warm-up')) latencies.push(performance.now() - t0);
    const count = (received.get(content) ?? 0) + 1;
    received.set(content, count);
    if (count === sessions) waiter?.();
  });
  let missing = 0;
  const warmUp = hooks.warmUp ?? 0;
  for (let index = -warmUp; index < messages; index += 1) {
    const content = index < 0 ? `warm-up ${index}` : `fan ${index}`;
    const all = new Promise<void>((resolve) => {
      waiter = resolve;
      setTimeout(resolve, timeoutMs).unref();
    });
    sentAt.set(content, performance.now());
    await send(content);
    await all;
    if (index >= 0) missing += sessions - (received.get(content) ?? 0);
  }
  await hooks.beforeClose?.();
  for (const socket of sockets) socket.close();
  const { p50, p99 } = summarize(latencies);
  return { sessions, p50, p99, deliveries: latencies.length, missing };
}

/**
 * Waits until the process is nearly idle (under 10% of a core over 250 ms, at most 30 s): what a burst of
 * connects set off (READY, presence updates to the sessions already there) must not be counted as fan-out.
 */
export async function quiet(pid: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  let before = await cpuMs(pid);
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = await cpuMs(pid);
    if (now - before <= 25) return;
    before = now;
  }
}

/** Opens `count` sockets (or anything), `parallel` at a time; `open` gets each one's index. */
export async function openMany<T>(count: number, open: (index: number) => Promise<T>, parallel = 50): Promise<T[]> {
  const opened: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) opened.push(await open(next++));
    }),
  );
  return opened;
}

/** POSTs a message with `content` to `url` (a channel's messages URL); fails unless answered 2xx. */
export async function postMessage(url: string, token: string | undefined, content: string): Promise<void> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== undefined) headers.authorization = token;
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ content }) });
  if (!response.ok) throw new Error(`POST ${url} → ${response.status} ${await response.text()}`);
}
