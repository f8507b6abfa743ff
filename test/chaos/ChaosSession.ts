import { performance } from 'node:perf_hooks';
import { WebSocket, type RawData } from 'ws';
import { PendingConditions } from '../support/PendingConditions.js';

/** Identify intents: GUILDS, GUILD_MESSAGES, MESSAGE_CONTENT. */
const INTENTS = (1 << 0) | (1 << 9) | (1 << 15);
/** A client heartbeats this often and gives a socket up when nothing answered for SILENT_MS (a paused node). */
const HEARTBEAT_MS = 1_000;
const SILENT_MS = 4_000;
/** How long a connect or a Hello may take before the client tries the next node. */
const CONNECT_MS = 3_000;
/** Between two connections (a client's reconnect delay). */
const RECONNECT_MS = 150;

/** One gateway session id as the client lived it: from READY until op 9 or the end of the run. */
export interface Lineage {
  readonly sessionId: string;
  /** performance.now() when READY arrived: every message first posted after it must reach the session. */
  readonly readyAt: number;
  /** MESSAGE_CREATE ids received, with how often. */
  readonly seen: Map<string, number>;
  /** performance.now() of the op 9 that ended it, and what the client was doing then. */
  invalidatedAt?: number;
  invalidatedWhile?: 'resuming' | 'live';
  resumes: number;
  /** Dispatches whose `s` was not the one after the last (a gap the client could notice). */
  seqGaps: number;
}

/** Where a client may connect now: the gateway URLs of the node processes that run. */
export type GatewayPicker = (attempt: number) => string | undefined;

/**
 * A gateway client as a careful bot library behaves: identifies once, heartbeats, and after op 7, a
 * close or a silent socket reconnects to any running node and resumes (op 6) with its last `s`; after
 * op 9 it identifies anew (a new lineage). It records every MESSAGE_CREATE per lineage.
 */
export class ChaosSession {
  readonly lineages: Lineage[] = [];
  /** Connections opened, resumes sent, op 7s received (for the report). */
  connections = 0;
  op7 = 0;
  /** True while a socket is open and its session is identified or resumed. */
  connected = false;
  #current: Lineage | undefined;
  #seq: number | null = null;
  #stopping = false;
  #ws: WebSocket | undefined;
  #running: Promise<void> = Promise.resolve();
  /** Pending waitUntil checks, run again after every dispatch. */
  readonly #conditions = new PendingConditions();

  constructor(
    readonly name: string,
    private readonly token: string,
    private readonly pick: GatewayPicker,
  ) {}

  /** The lineage live now (undefined between an op 9 and the next READY). */
  get current(): Lineage | undefined {
    return this.#current;
  }

  start(): void {
    this.#running = this.#run();
  }

  /** Resolves once `predicate` holds after a dispatch (or now); rejects after `timeoutMs`, naming `what`. */
  waitUntil(what: string, predicate: (session: this) => boolean, timeoutMs: number): Promise<void> {
    const timedOut = (): Error =>
      new Error(`${this.name}: no ${what} within ${timeoutMs} ms (${this.lineages.length} READY, ${this.op7} op 7)`);
    return this.#conditions.wait(() => predicate(this), timeoutMs, timedOut);
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    this.#ws?.terminate();
    await this.#running;
  }

  async #run(): Promise<void> {
    for (let attempt = 0; !this.#stopping; attempt += 1) {
      const url = this.pick(attempt);
      if (url) await this.#connection(url).catch(() => undefined);
      this.connected = false;
      if (!this.#stopping) await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
    }
  }

  /** One socket, from connect to close; resolves when it is closed. */
  #connection(url: string): Promise<void> {
    return new Promise((resolve) => {
      const ws = new WebSocket(`${url}/?v=10&encoding=json`, { handshakeTimeout: CONNECT_MS });
      this.#ws = ws;
      this.connections += 1;
      let lastHeard = performance.now();
      let resuming = false;
      let beat: ReturnType<typeof setInterval> | undefined;
      const helloTimer = setTimeout(() => {
        ws.terminate();
      }, CONNECT_MS);
      const send = (op: number, d: unknown): void => {
        if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ op, d }));
      };
      ws.on('message', (data: RawData) => {
        lastHeard = performance.now();
        const frame = JSON.parse(rawText(data)) as { op: number; d: unknown; s: number | null; t: string | null };
        if (frame.op === 10) {
          clearTimeout(helloTimer);
          beat = setInterval(() => {
            if (performance.now() - lastHeard > SILENT_MS) ws.terminate();
            else send(1, this.#seq);
          }, HEARTBEAT_MS);
          if (this.#current && this.#seq !== null) {
            resuming = true;
            send(6, { token: this.token, session_id: this.#current.sessionId, seq: this.#seq });
          } else {
            send(2, {
              token: this.token,
              intents: INTENTS,
              properties: { os: 'linux', browser: 'chaos', device: 'chaos' },
            });
          }
        } else if (frame.op === 0) {
          this.#dispatch(frame, () => (resuming = false));
          this.#conditions.check();
        } else if (frame.op === 7) {
          this.op7 += 1;
          ws.close(4000);
        } else if (frame.op === 9) {
          if (this.#current) {
            this.#current.invalidatedAt = performance.now();
            this.#current.invalidatedWhile = resuming ? 'resuming' : 'live';
          }
          this.#current = undefined;
          this.#seq = null;
          ws.close(4000);
        }
      });
      ws.on('error', () => undefined); // the close that follows ends this connection
      ws.on('close', () => {
        clearTimeout(helloTimer);
        clearInterval(beat);
        resolve();
      });
    });
  }

  #dispatch(frame: { d: unknown; s: number | null; t: string | null }, resumed: () => void): void {
    if (frame.t === 'READY') {
      const d = frame.d as { session_id: string };
      this.#current = { sessionId: d.session_id, readyAt: performance.now(), seen: new Map(), resumes: 0, seqGaps: 0 };
      this.lineages.push(this.#current);
      this.#seq = frame.s;
      this.connected = true;
      return;
    }
    const lineage = this.#current;
    if (!lineage || frame.s === null) return;
    if (this.#seq !== null && frame.s !== this.#seq + 1) lineage.seqGaps += 1;
    if (this.#seq === null || frame.s > this.#seq) this.#seq = frame.s;
    if (frame.t === 'RESUMED') {
      lineage.resumes += 1;
      this.connected = true;
      resumed();
    } else if (frame.t === 'MESSAGE_CREATE') {
      const id = (frame.d as { id: string }).id;
      lineage.seen.set(id, (lineage.seen.get(id) ?? 0) + 1);
    }
  }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}
