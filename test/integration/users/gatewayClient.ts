import WebSocket from 'ws';

interface Frame {
  op: number;
  t?: string | null;
  s?: number | null;
  d: unknown;
}

/** A minimal gateway client for tests: identifies, keeps every dispatch, and awaits the ones asked for. */
export class GatewayClient {
  readonly dispatches: Frame[] = [];
  readonly #waiters = new Set<() => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString('utf8')) as Frame;
      if (frame.op === 0) this.dispatches.push(frame);
      for (const wake of [...this.#waiters]) wake();
    });
  }

  /** Connects and identifies with `token`; resolves once READY arrived. */
  static async connect(gatewayUrl: string, token: string, intents?: number): Promise<GatewayClient> {
    const socket = new WebSocket(`${gatewayUrl}/?v=10&encoding=json`);
    const client = new GatewayClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => {
        resolve();
      });
      socket.once('error', reject);
    });
    const identify: Record<string, unknown> = { token, properties: { os: 'linux', browser: 'test', device: 'test' } };
    if (intents !== undefined) identify['intents'] = intents;
    socket.send(JSON.stringify({ op: 2, d: identify }));
    await client.waitFor('READY');
    return client;
  }

  /**
   * The `d` of the first dispatch named `event` (matching `where`) received so far or later, typed as
   * the caller expects it; rejects after `timeoutMs`.
   */
  waitFor<D>(event: string, where: (d: D) => boolean = () => true, timeoutMs = 5_000): Promise<D> {
    const find = (): Frame | undefined => this.dispatches.find((frame) => frame.t === event && where(frame.d as D));
    const found = find();
    if (found) return Promise.resolve(found.d as D);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(new Error(`no ${event} within ${timeoutMs} ms; got ${this.dispatches.map((f) => f.t).join(', ')}`));
      }, timeoutMs);
      const check = (): void => {
        const frame = find();
        if (!frame) return;
        clearTimeout(timer);
        this.#waiters.delete(check);
        resolve(frame.d as D);
      };
      this.#waiters.add(check);
    });
  }

  close(): void {
    this.socket.close(1000);
  }
}
