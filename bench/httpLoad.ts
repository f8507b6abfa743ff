import { Agent, request } from 'node:http';
import { summarize } from './stats.js';

/** Result of a closed-loop POST load. */
export interface LoadResult {
  readonly clients: number;
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
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

/**
 * `clients` closed loops, each POSTing the next message as soon as the previous one is answered, for
 * `durationMs`; each client has its own keep-alive connection, token and target path.
 */
export async function closedLoopPosts(
  baseUrl: string,
  targets: readonly { token?: string; path: string; base?: string }[],
  clients: number,
  durationMs: number,
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
        const status = await post(agent, url, target.token, JSON.stringify({ content: `bench ${index} ${n}` }));
        latencies.push(performance.now() - t0);
        if (status >= 300) errors += 1;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  const { p50, p99 } = summarize(latencies);
  return { clients, perSecond: latencies.length / elapsed, p50, p99, errors };
}
