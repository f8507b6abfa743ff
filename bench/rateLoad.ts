import { Agent, request } from 'node:http';
import { summarize } from './stats.js';

/** Result of an open-loop POST load at a fixed rate. */
export interface RateResult {
  readonly offeredPerSecond: number;
  /** Messages answered 2xx within the window (the CPU per message divides by this). */
  readonly completed: number;
  readonly perSecond: number;
  /** Latency from the moment a POST was due, so a server falling behind shows in p99 (no coordinated omission). */
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
  /** POSTs not sent because `maxInFlight` were already waiting: the server did not keep up with the rate. */
  readonly shed: number;
}

/**
 * POSTs at `ratePerSecond` whatever the answers do (open loop), spread over `targets` in turn, for `durationMs`,
 * then waits for the last answers. The same offered load in two modes makes their CPU per message comparable.
 */
export async function rateLimitedPosts(
  targets: readonly { token?: string; path: string; base: string }[],
  ratePerSecond: number,
  durationMs: number,
  maxInFlight = 200,
): Promise<RateResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  const urls = targets.map((target) => ({ url: new URL(target.path, target.base), token: target.token }));
  const latencies: number[] = [];
  const pending = new Set<Promise<void>>();
  let errors = 0;
  let shed = 0;
  let sent = 0;
  const started = performance.now();
  const send = (due: number): void => {
    const target = urls[sent % urls.length];
    sent += 1;
    if (!target) return;
    if (pending.size >= maxInFlight) {
      shed += 1;
      return;
    }
    const done = post(agent, target.url, target.token, JSON.stringify({ content: `rate ${sent}` })).then(
      (status) => {
        if (status >= 300) errors += 1;
        else latencies.push(performance.now() - due);
      },
      () => {
        errors += 1;
      },
    );
    pending.add(done);
    void done.finally(() => pending.delete(done));
  };
  const intervalMs = 1000 / ratePerSecond;
  while (performance.now() - started < durationMs) {
    // Every POST due by now leaves now, each timed from when it was due.
    const dueCount = Math.floor((performance.now() - started) / intervalMs);
    while (sent < dueCount) send(started + sent * intervalMs);
    await new Promise((resolve) => setTimeout(resolve, Math.max(1, Math.min(10, intervalMs))));
  }
  await Promise.all(pending);
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  const { p50, p99 } = summarize(latencies);
  return {
    offeredPerSecond: ratePerSecond,
    completed: latencies.length,
    perSecond: latencies.length / elapsed,
    p50,
    p99,
    errors,
    shed,
  };
}

function post(agent: Agent, url: URL, token: string | undefined, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    };
    if (token !== undefined) headers.authorization = token;
    const req = request(url, { method: 'POST', agent, headers }, (res) => {
      res.resume();
      res.once('end', () => {
        resolve(res.statusCode ?? 0);
      });
    });
    req.once('error', reject);
    req.end(body);
  });
}
