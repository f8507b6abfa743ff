import { Agent, request } from 'node:http';
import { summarize } from './stats.js';

/** Result of a closed-loop request load. */
export interface LoadResult {
  readonly clients: number;
  /** Requests answered over the window. */
  readonly requests: number;
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
  /** Seconds the load ran. */
  readonly seconds: number;
  /** Every request's latency in ms, so loads measured in several rounds pool into one distribution. */
  readonly latencies: readonly number[];
}

/** A load's figures from every latency it timed, over `seconds`. */
function loadResult(clients: number, latencies: readonly number[], seconds: number, errors: number): LoadResult {
  const { p50, p99 } = summarize(latencies);
  return {
    clients,
    requests: latencies.length,
    perSecond: latencies.length / seconds,
    p50,
    p99,
    errors,
    seconds,
    latencies,
  };
}

/** Several rounds of one load as one: requests and seconds summed, percentiles over every latency. */
export function pooled(rounds: readonly LoadResult[]): LoadResult {
  const sum = (figure: (round: LoadResult) => number): number =>
    rounds.reduce((total, round) => total + figure(round), 0);
  const latencies = rounds.flatMap((round) => round.latencies);
  return loadResult(
    rounds[0]?.clients ?? 0,
    latencies,
    sum((round) => round.seconds),
    sum((round) => round.errors),
  );
}

/** One request of a closed loop: a target's path and token, and the body to POST (none: a GET). */
type Send = (agent: Agent, url: URL, token: string | undefined, body: string | undefined) => Promise<number>;

const send: Send = (agent, url, token, body) =>
  new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = {};
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(body);
    }
    if (token !== undefined) headers.authorization = token;
    const method = body === undefined ? 'GET' : 'POST';
    const req = request(url, { method, agent, headers }, (res) => {
      res.resume();
      res.once('end', () => {
        resolve(res.statusCode ?? 0);
      });
    });
    req.once('error', reject);
    req.end(body);
  });

async function closedLoop(
  baseUrl: string,
  targets: readonly { token?: string; path: string; base?: string }[],
  clients: number,
  durationMs: number,
  bodyOf: (client: number, n: number) => string | undefined,
): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const stopAt = started + durationMs;
  await Promise.all(
    Array.from({ length: clients }, async (_, index) => {
      const target = targets[index % targets.length] ?? { path: '/' };
      const url = new URL(target.path, target.base ?? baseUrl);
      let n = 0;
      while (performance.now() < stopAt) {
        n += 1;
        const t0 = performance.now();
        const status = await send(agent, url, target.token, bodyOf(index, n));
        latencies.push(performance.now() - t0);
        if (status >= 300) errors += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return loadResult(clients, latencies, seconds, errors);
}

/**
 * `clients` closed loops, each POSTing the next message as soon as the previous one is answered, for
 * `durationMs`; each client has its own keep-alive connection, token and target path.
 */
export function closedLoopPosts(
  baseUrl: string,
  targets: readonly { token?: string; path: string; base?: string }[],
  clients: number,
  durationMs: number,
): Promise<LoadResult> {
  return closedLoop(baseUrl, targets, clients, durationMs, (index, n) =>
    JSON.stringify({ content: `bench ${index} ${n}` }),
  );
}

/** The same closed loops GETting each target's path (a history page, say). */
export function closedLoopGets(
  baseUrl: string,
  targets: readonly { token?: string; path: string; base?: string }[],
  clients: number,
  durationMs: number,
): Promise<LoadResult> {
  return closedLoop(baseUrl, targets, clients, durationMs, () => undefined);
}
