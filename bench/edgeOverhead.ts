// What an HTTP framework costs a message POST: `npx tsx bench/edgeOverhead.ts [rounds]` runs 10 closed-loop clients
// (4 s a round, rounds alternating) against the bare baseline (bench/bareServer.ts), the same minimal handler on
// Koa, and on node:http alone (bench/minimalServer.ts), and prints each one's rate and CPU per request. The gap
// between the last two is what Koa adds to every request of Chorus (docs/single-node-cost.md).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { cpuSeconds } from './cpuAccounting.js';
import { closedLoopPosts } from './httpLoad.js';

interface Started {
  readonly name: string;
  readonly pid: number;
  readonly baseUrl: string;
  stop(): void;
}

async function start(name: string, args: readonly string[]): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => {
      reject(new Error(`${name} exited with ${String(code)}`));
    });
  });
  const { port } = JSON.parse(line) as { port: number };
  return { name, pid: child.pid ?? 0, baseUrl: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

const rounds = Number(process.argv[2] ?? 3);
const servers = [
  await start('bare baseline (Koa)', ['bench/bareServer.ts', '0']),
  await start('minimal on Koa', ['bench/minimalServer.ts', 'koa']),
  await start('minimal on node:http', ['bench/minimalServer.ts', 'node']),
];
try {
  console.log('server | req/s | CPU µs per request');
  for (let round = 0; round < rounds; round += 1) {
    for (const server of servers) {
      const before = cpuSeconds(server.pid);
      const load = await closedLoopPosts(server.baseUrl, [{ path: '/channels/1/messages' }], 10, 4000);
      const cpuUs = ((cpuSeconds(server.pid) - before) * 1e6) / load.requests;
      console.log(`${server.name} | ${Math.round(load.perSecond)} | ${cpuUs.toFixed(1)}`);
    }
  }
} finally {
  for (const server of servers) server.stop();
}
