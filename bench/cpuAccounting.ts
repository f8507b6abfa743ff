// CPU time of the processes a message passes through (Linux /proc), so the cost of a message can be summed over
// every process involved: on a shared machine wall-clock throughput moves with the neighbours' load, CPU-seconds
// per message much less.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createClient } from 'redis';

let ticksPerSecond: number | undefined;

/** The kernel's clock ticks a second (`getconf CLK_TCK`; 100 on every Linux the bench met). */
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** CPU-seconds (user + system, every thread) `pid` has used so far; 0 once it is gone. */
export function cpuSeconds(pid: number): number {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return 0;
  }
  // After "pid (comm) " the fields start at the state (field 3): utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / clockTicks();
}

/** The redis-server at `url` (INFO server's process_id), or none when it is not on this machine. */
export async function redisPids(url = process.env.CHORUS_REDIS_URL ?? 'redis://127.0.0.1:6379'): Promise<number[]> {
  const redis = createClient({ url, RESP: 2, socket: { reconnectStrategy: false } });
  redis.on('error', () => undefined); // an unreachable Redis is reported as "no pid"
  try {
    await redis.connect();
    const info = await redis.info('server');
    const pid = Number(/process_id:(\d+)/.exec(info)?.[1] ?? 0);
    return pid > 0 && readable(pid) ? [pid] : [];
  } catch {
    return [];
  } finally {
    redis.destroy();
  }
}

/** Every Cassandra JVM on this machine (scripts/cassandra.sh may run several local nodes). */
export function cassandraPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('CassandraDaemon')) pids.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids;
}

function readable(pid: number): boolean {
  try {
    readFileSync(`/proc/${pid}/stat`, 'utf8');
    return true;
  } catch {
    return false;
  }
}

/** Named groups of processes, e.g. `{ chorus: [node pids], redis: [pid], cassandra: [pid] }`. */
export type ProcessGroups = Readonly<Record<string, readonly number[]>>;

/** CPU-seconds each group used between two readings. */
export type GroupCpu = Record<string, number>;

/** Reads every group's CPU now; the returned function reads again and gives the difference per group. */
export function startCpuWindow(groups: ProcessGroups): () => GroupCpu {
  const read = (): GroupCpu =>
    Object.fromEntries(
      Object.entries(groups).map(([name, pids]) => [name, pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0)]),
    );
  const before = read();
  return () => {
    const after = read();
    return Object.fromEntries(Object.entries(after).map(([name, seconds]) => [name, seconds - (before[name] ?? 0)]));
  };
}
