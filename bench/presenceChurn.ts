import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { cpuMs, summarize } from './stats.js';

/** What one presence-churn run measured, on Chorus or on the bare baseline. */
export interface ChurnRun {
  readonly sessions: number;
  /** Op 3 frames sent (each with a status and an activity named after its number). */
  readonly updates: number;
  /** From the first op 3 to the last PRESENCE_UPDATE that arrived (or the drain timeout). */
  readonly wallMs: number;
  /** Server process CPU (user + system) over the same span. */
  readonly cpuMs: number;
  readonly cpuMsPerUpdate: number;
  /** PRESENCE_UPDATE frames that reached the other sessions, and how many were expected (updates × others). */
  readonly deliveries: number;
  /** Updates × the sampled sessions that are not their sender. */
  readonly expected: number;
  readonly missing: number;
  /** Op 3 send → PRESENCE_UPDATE arrival at the sampled receivers. */
  readonly p50: number;
  readonly p99: number;
  readonly sampledReceivers: number;
  /** Sockets the server closed during the run (a slow reader is asked to reconnect). */
  readonly closedDuringRun: number;
}

/** How a churn run is driven. */
export interface ChurnOptions {
  /** The server process whose CPU is read from /proc. */
  readonly pid: number;
  readonly seconds: number;
  /** Share of the sessions that change status each second. */
  readonly share: number;
  /**
   * Sessions that read their socket and time each arrival. The others stop reading after READY (socket.pause()):
   * the server still serialises and writes every frame to them, but this process, which shares the cores, does
   * not decode 100,000 frames a second (a 10 s run queues ~200 KB per socket, far below the 8 MB that would
   * make Chorus move a slow reader).
   */
  readonly sample: number;
  /** How long to wait after the last op 3 for the deliveries still on their way. */
  readonly drainMs: number;
}

/** A connected churn socket: sends op 3 on demand, reports each PRESENCE_UPDATE's update number. */
export interface ChurnSocket {
  /** True when this socket reads and times its PRESENCE_UPDATEs (ChurnOptions.sample). */
  readonly listens: boolean;
  sendStatus(update: number, status: string): void;
  close(): void;
}

const MARK = /"name":"churn ([0-9]+)"/;
const STATUSES = ['online', 'idle', 'dnd'] as const;
/** Discord lets a session send 5 op 3 per window (Chorus: per 60 s); the schedule must stay within it. */
const OP3_PER_MINUTE = 5;

/**
 * Opens a socket that, unless it `listens`, stops reading once it is ready; with a token it identifies as an invisible user (so 1,000 sessions coming up send no
 * PRESENCE_UPDATE storm before the run) and resolves on READY; without one (the baseline) it resolves on Hello.
 * Only frames naming PRESENCE_UPDATE are looked at, by a regex: the clients share the cores with the server.
 */
export function openChurnSocket(
  url: string,
  token: string | undefined,
  listens: boolean,
  onPresence: (update: number) => void,
  onClose: () => void,
): Promise<ChurnSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    let heartbeat: NodeJS.Timeout | undefined;
    let ready = false;
    const handle: ChurnSocket = {
      listens,
      sendStatus: (update, status) => {
        const d = { since: null, afk: false, status, activities: [{ name: `churn ${update}`, type: 0 }] };
        socket.send(JSON.stringify({ op: 3, d }));
      },
      close: () => {
        clearInterval(heartbeat);
        socket.close(1000);
      },
    };
    const becomeReady = (): void => {
      ready = true;
      if (!listens) socket.pause();
      resolve(handle);
    };
    socket.once('error', reject);
    socket.on('close', () => {
      clearInterval(heartbeat);
      if (ready) onClose();
    });
    socket.on('message', (data: Buffer) => {
      const text = data.toString();
      if (text.includes('"PRESENCE_UPDATE"')) {
        const update = MARK.exec(text)?.[1];
        if (update !== undefined) onPresence(Number(update));
        return;
      }
      if (ready) return;
      const frame = JSON.parse(text) as { op: number; t?: string; d?: { heartbeat_interval?: number } };
      if (frame.op === 10) {
        heartbeat = setInterval(() => {
          socket.send('{"op":1,"d":null}');
        }, frame.d?.heartbeat_interval ?? 41_250);
        heartbeat.unref();
        if (token === undefined) {
          becomeReady();
          return;
        }
        const presence = { status: 'invisible', since: null, afk: false, activities: [] };
        const properties = { os: 'linux', browser: 'bench', device: 'bench' };
        socket.send(JSON.stringify({ op: 2, d: { token, intents: (1 << 0) | (1 << 8), properties, presence } }));
      } else if (frame.t === 'READY') {
        becomeReady();
      }
    });
  });
}

/**
 * Issue 11 item 8, presence churn: `connect` opens the sessions (the callbacks count arrivals); each second
 * `share` of them send op 3 with a new status, spread evenly over the second, rotating through the sessions so
 * none sends more than Discord's 5 per minute. Every other session should get each update; the first `sample`
 * sessions read theirs and time them (the rest are written to but not read, see ChurnOptions.sample). Returns
 * the figures and the sockets (closed by the caller, after it stopped the server if closing them would start a
 * storm of its own).
 */
export async function runChurn(
  options: ChurnOptions,
  connect: (
    listens: (receiver: number) => boolean,
    onPresence: (receiver: number) => (update: number) => void,
    onClose: () => void,
  ) => Promise<ChurnSocket[]>,
): Promise<{ run: ChurnRun; sockets: ChurnSocket[] }> {
  const sentAt: number[] = [];
  const latencies: number[] = [];
  let deliveries = 0;
  let expected = Number.POSITIVE_INFINITY;
  let closed = 0;
  let lastArrival = 0;
  let drained: (() => void) | undefined;
  const sockets = await connect(
    (receiver) => receiver < options.sample,
    () => (update) => {
      const t0 = sentAt[update];
      if (t0 === undefined) return;
      deliveries += 1;
      lastArrival = performance.now();
      latencies.push(lastArrival - t0);
      if (deliveries >= expected) drained?.();
    },
    () => {
      closed += 1;
    },
  );
  const sessions = sockets.length;
  const perSecond = Math.max(1, Math.round(sessions * options.share));
  const updates = perSecond * options.seconds;
  if (Math.ceil((perSecond * Math.min(options.seconds, 60)) / sessions) > OP3_PER_MINUTE) {
    throw new Error(`presence churn: ${perSecond}/s over ${sessions} sessions exceeds ${OP3_PER_MINUTE} op 3 a minute`);
  }
  const sampled = sockets.filter((socket) => socket.listens).length;
  expected = 0;
  for (let update = 0; update < updates; update += 1)
    expected += sockets[update % sessions]?.listens ? sampled - 1 : sampled;
  const all = new Promise<void>((resolve) => {
    drained = resolve;
  });
  const cpuBefore = await cpuMs(options.pid);
  const start = performance.now();
  for (let update = 0; update < updates; update += 1) {
    const due = start + (update * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    sentAt[update] = performance.now();
    sockets[update % sessions]?.sendStatus(update, STATUSES[update % STATUSES.length] ?? 'online');
  }
  await Promise.race([all, sleep(options.drainMs, undefined, { ref: false })]);
  const cpu = (await cpuMs(options.pid)) - cpuBefore;
  const { p50, p99 } = summarize(latencies);
  return {
    run: {
      sessions,
      updates,
      wallMs: Math.max(lastArrival, sentAt[updates - 1] ?? start) - start,
      cpuMs: cpu,
      cpuMsPerUpdate: cpu / updates,
      deliveries,
      expected,
      missing: expected - deliveries,
      p50,
      p99,
      sampledReceivers: sampled,
      closedDuringRun: closed,
    },
    sockets,
  };
}
