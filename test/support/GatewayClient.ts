import { constants, createInflate, inflateSync, type Inflate } from 'node:zlib';
import { WebSocket, type RawData } from 'ws';
import { erlpack, ZstdStreamReader } from './gatewayCodecs.js';

/** One frame received from the gateway. */
export interface GatewayFrame<D = unknown> {
  op: number;
  d: D;
  s: number | null;
  t: string | null;
}

/** How the socket closed. */
export interface GatewayClose {
  code: number;
  reason: string;
}

/** Options of GatewayClient.connect. */
export interface GatewayConnectOptions {
  /** Query string after `?` (default `v=10&encoding=json`). */
  query?: string;
  /** Adds `compress=zlib-stream` and inflates binary messages with one inflate context. */
  zlibStream?: boolean;
  /** Adds `compress=zstd-stream` and decodes each binary message with one streaming zstd decoder. */
  zstdStream?: boolean;
  /** `encoding=etf`: sends and reads Erlang terms through erlpack (query's encoding must say etf too). */
  etf?: boolean;
  /** Answer op 10 Hello with heartbeats every interval (default false: tests heartbeat by hand). */
  autoHeartbeat?: boolean;
}

const SYNC_FLUSH = Buffer.from([0x00, 0x00, 0xff, 0xff]);
const DEFAULT_TIMEOUT_MS = 5_000;

/**
 * A raw gateway client for tests: connects, records every frame, and awaits frames by predicate
 * with a timeout whose error names what was awaited and lists what did arrive.
 */
export class GatewayClient {
  /** Every frame received, in order. */
  readonly frames: GatewayFrame[] = [];
  /** Binary (compressed) WebSocket messages received. */
  binaryMessages = 0;
  /** The binary messages themselves, as they came off the socket (before any decompression). */
  readonly binaryData: Buffer[] = [];
  /** Resolves when the socket closes. */
  readonly closed: Promise<GatewayClose>;
  #waiters = new Set<() => void>();
  #inflate: Inflate | undefined;
  #pending: Buffer[] = [];
  #inflated: Buffer[] = [];
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  #closeInfo: GatewayClose | undefined;
  readonly #zstd: ZstdStreamReader | undefined;
  readonly #etf: boolean;

  private constructor(
    readonly ws: WebSocket,
    options: GatewayConnectOptions,
  ) {
    if (options.zlibStream) this.#startInflate();
    this.#zstd = options.zstdStream ? new ZstdStreamReader() : undefined;
    this.#etf = options.etf === true;
    ws.on('message', (data, isBinary) => {
      this.#onMessage(data, isBinary);
    });
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        clearInterval(this.#heartbeat);
        this.#closeInfo = { code, reason: reason.toString() };
        resolve(this.#closeInfo);
        this.#notify();
      });
    });
    if (options.autoHeartbeat) {
      void this.waitFor('op 10 Hello', (frame) => frame.op === 10).then((hello) => {
        const interval = (hello.d as { heartbeat_interval: number }).heartbeat_interval;
        this.#heartbeat = setInterval(() => {
          this.send(1, this.lastSeq);
        }, interval);
        this.#heartbeat.unref();
      });
    }
  }

  /** Opens a socket to `gatewayUrl` (as GET /gateway returns it) and waits until it is open. */
  static async connect(gatewayUrl: string, options: GatewayConnectOptions = {}): Promise<GatewayClient> {
    let query = options.query ?? 'v=10&encoding=json';
    if (options.zlibStream) query += '&compress=zlib-stream';
    if (options.zstdStream) query += '&compress=zstd-stream';
    const ws = new WebSocket(`${gatewayUrl}/?${query}`);
    const client = new GatewayClient(ws, options);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => {
        resolve();
      });
      ws.once('error', reject);
    });
    return client;
  }

  /** Connects, identifies with `token` and resolves with READY's `d` (`extra` is merged into the payload). */
  static async identified(
    gatewayUrl: string,
    token: string,
    extra: Record<string, unknown> = {},
    options: GatewayConnectOptions = {},
  ): Promise<{ client: GatewayClient; ready: Record<string, unknown> }> {
    const client = await GatewayClient.connect(gatewayUrl, options);
    const ready = await client.identify(token, extra);
    return { client, ready };
  }

  /** The highest `s` received (null before the first dispatch), as heartbeats and Resume send it. */
  get lastSeq(): number | null {
    let seq: number | null = null;
    for (const frame of this.frames) if (frame.s !== null && (seq === null || frame.s > seq)) seq = frame.s;
    return seq;
  }

  /** Sends `{op, d}`. */
  send(op: number, d: unknown): void {
    this.ws.send(this.#etf ? erlpack.pack({ op, d }) : JSON.stringify({ op, d }));
  }

  /** Sends raw text or bytes. */
  sendRaw(data: string | Buffer): void {
    this.ws.send(data);
  }

  /** Sends op 2 Identify and resolves with READY's `d`. */
  async identify(token: string, extra: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const from = this.frames.length;
    this.send(2, { token, properties: { os: 'linux', browser: 'chorus-test', device: 'chorus-test' }, ...extra });
    const ready = await this.waitForDispatch('READY', () => true, { from });
    return ready.d;
  }

  /** The first frame (from index `from`) that matches, waiting up to `timeoutMs` for it. */
  waitFor<D = unknown>(
    what: string,
    predicate: (frame: GatewayFrame) => boolean,
    { timeoutMs = DEFAULT_TIMEOUT_MS, from = 0 }: { timeoutMs?: number; from?: number } = {},
  ): Promise<GatewayFrame<D>> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = this.frames.slice(from).find(predicate);
        if (found) {
          done();
          resolve(found as GatewayFrame<D>);
          return true;
        }
        if (this.#closeInfo) {
          done();
          reject(
            new Error(
              `${what}: socket closed ${this.#closeInfo.code} (${this.#closeInfo.reason}) first; got ${this.#summary()}`,
            ),
          );
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`${what}: nothing matched within ${timeoutMs} ms; got ${this.#summary()}`));
      }, timeoutMs);
      const listener = (): void => void check();
      const done = (): void => {
        clearTimeout(timer);
        this.#waiters.delete(listener);
      };
      if (!check()) this.#waiters.add(listener);
    });
  }

  /** The first dispatch `event` whose `d` matches (from index `from`). */
  waitForDispatch<D = Record<string, unknown>>(
    event: string,
    match: (d: D) => boolean = () => true,
    options: { timeoutMs?: number; from?: number } = {},
  ): Promise<GatewayFrame<D>> {
    return this.waitFor<D>(
      `dispatch ${event}`,
      (frame) => frame.op === 0 && frame.t === event && match(frame.d as D),
      options,
    );
  }

  /** Every dispatch `event` received so far. */
  dispatches<D = Record<string, unknown>>(event: string): GatewayFrame<D>[] {
    return this.frames.filter((frame) => frame.op === 0 && frame.t === event) as GatewayFrame<D>[];
  }

  /** Closes the socket (1000 ends the session; other codes such as 4000 keep it resumable) and waits. */
  async close(code = 1000): Promise<GatewayClose> {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close(code);
    return this.closed;
  }

  /** Drops the TCP connection without a close frame (a lost network). */
  async drop(): Promise<GatewayClose> {
    this.ws.terminate();
    return this.closed;
  }

  #onMessage(data: RawData, isBinary: boolean): void {
    const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    if (!isBinary) {
      this.#record(bytes.toString('utf8'));
      return;
    }
    this.binaryMessages += 1;
    this.binaryData.push(bytes);
    if (this.#zstd) {
      this.#record(this.#zstd.read(bytes));
      return;
    }
    if (this.#etf && !this.#inflate) {
      this.#record(bytes);
      return;
    }
    if (!this.#inflate) {
      this.#record(inflateSync(bytes).toString('utf8')); // Identify `compress: true`: one zlib payload per message
      return;
    }
    this.#pending.push(bytes);
    if (bytes.length < 4 || !bytes.subarray(-4).equals(SYNC_FLUSH)) return;
    const message = Buffer.concat(this.#pending);
    this.#pending = [];
    // zlib runs flush callbacks in write order, each after its own output: one frame per flush.
    this.#inflate.write(message);
    this.#inflate.flush(constants.Z_SYNC_FLUSH, () => {
      const inflated = Buffer.concat(this.#inflated);
      this.#inflated = [];
      this.#record(this.#etf ? inflated : inflated.toString('utf8'));
    });
  }

  #startInflate(): void {
    this.#inflate = createInflate({ chunkSize: 64 * 1024 });
    this.#inflate.on('data', (chunk: Buffer) => this.#inflated.push(chunk));
  }

  /** Text is JSON; bytes are one ETF term (erlpack) on an ETF socket, else JSON's UTF-8. */
  #record(payload: string | Buffer): void {
    const text = typeof payload === 'string' ? payload : this.#etf ? undefined : payload.toString('utf8');
    const frame = text === undefined ? erlpack.unpack(payload as Buffer) : (JSON.parse(text) as unknown);
    this.frames.push(frame as GatewayFrame);
    this.#notify();
  }

  #notify(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }

  #summary(): string {
    const tail = this.frames.slice(-12).map((frame) => (frame.op === 0 ? `${frame.t}#${frame.s}` : `op${frame.op}`));
    return `[${tail.join(', ')}] (${this.frames.length} frames)`;
  }
}
