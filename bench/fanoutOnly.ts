// `tsx bench/run.ts --fanout-only`: the fan-out row alone (issue 15 §5), so a change to the dispatch path can be
// measured in a minute. Chorus and the bare baseline run in the same process pair, alternately, for
// BENCH_FANOUT_ROUNDS rounds of BENCH_FANOUT_MESSAGES POSTs each, at BENCH_SESSIONS sockets (the last figure of
// the list); each side's server CPU time per fan-out is read from /proc around its rounds only. With more than one
// round the first is a warm-up, printed but not pooled.
// BENCH_FANOUT_PERF=1 also counts each server's instructions per fan-out (Linux perf), steadier than CPU time.
// BENCH_FANOUT_PROFILE=FILE.cpuprofile: a CPU profile of Chorus over its last round (inspector on BENCH_PORT + 50).
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { addMembers, createWorld } from './chorusSetup.js';
import { measureFanout, openMany, openSocket, postMessage, quiet } from './fanout.js';
import { connectProfiler } from './inspectorProfile.js';
import { startBaseline, startChorus } from './processes.js';
import { cpuMs, summarize } from './stats.js';

/**
 * Counts the instructions (user and kernel) a process runs until `stop` (Linux perf, BENCH_FANOUT_PERF=1): unlike
 * CPU time it barely moves with the load other processes put on the shared cores.
 */
async function countInstructions(pid: number): Promise<{ stop(): Promise<number> }> {
  const perf = spawn('perf', ['stat', '-x', ',', '-e', 'instructions', '-p', String(pid)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let report = '';
  perf.stderr.on('data', (chunk: Buffer) => (report += chunk.toString()));
  await new Promise((resolve) => setTimeout(resolve, 200)); // attached
  return {
    stop: async () => {
      const exited = new Promise((resolve) => perf.once('exit', resolve));
      perf.kill('SIGINT');
      await exited;
      const line = report.split('\n').find((row) => row.includes('instructions')) ?? '';
      return Number(line.split(',')[0]);
    },
  };
}

/** What one side measured over all its rounds. */
export interface FanoutSide {
  readonly p50: number;
  readonly p99: number;
  readonly missing: number;
  /** Server CPU (user + system) per POST and its fan-out, ms. */
  readonly cpuMsPerFanout: number;
  /** Server instructions (user + kernel) per POST and its fan-out, millions; NaN without BENCH_FANOUT_PERF. */
  readonly mInstructionsPerFanout: number;
}

const fmt = (n: number, digits = 2): string => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** Latencies of every round pooled (percentiles over all deliveries), CPU summed. */
class SideTotals {
  readonly #latencies: number[] = [];
  #missing = 0;
  #cpu = 0;
  #instructions = 0;
  #posts = 0;

  add(latencies: readonly number[], missing: number, cost: { cpu: number; instructions: number }, posts: number): void {
    for (const latency of latencies) this.#latencies.push(latency);
    this.#missing += missing;
    this.#cpu += cost.cpu;
    this.#instructions += cost.instructions;
    this.#posts += posts;
  }

  result(): FanoutSide {
    const { p50, p99 } = summarize(this.#latencies);
    const perPost = (total: number): number => total / this.#posts;
    return {
      p50,
      p99,
      missing: this.#missing,
      cpuMsPerFanout: perPost(this.#cpu),
      mInstructionsPerFanout: perPost(this.#instructions) / 1e6,
    };
  }
}

export async function fanoutOnly(out: string | URL): Promise<void> {
  const sessions = Number((process.env.BENCH_SESSIONS ?? '1000').split(',').pop());
  const messages = Number(process.env.BENCH_FANOUT_MESSAGES ?? 20);
  const rounds = Number(process.env.BENCH_FANOUT_ROUNDS ?? 3);
  const profileFile = process.env.BENCH_FANOUT_PROFILE;
  const port = Number(process.env.BENCH_PORT ?? 3901);
  const inspectPort = port + 50;
  const baseline = await startBaseline();
  const inspect = { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --inspect=127.0.0.1:${inspectPort}` };
  const chorus = await startChorus(port, profileFile !== undefined ? inspect : {});
  try {
    const world = await createWorld(chorus.baseUrl, 1);
    const members = await addMembers(chorus.baseUrl, world, sessions - 1);
    const tokens = [world.owner.token, ...members.map((member) => member.token)];
    const gatewayUrl = `${chorus.baseUrl.replace(/^http/, 'ws')}/?v=10&encoding=json`;
    const channelUrl = `${chorus.baseUrl}/api/v10/channels/${world.channelIds[0] ?? ''}/messages`;
    const sides = [
      {
        name: 'chorus',
        pid: chorus.pid,
        totals: new SideTotals(),
        // Every session looks at the guild (op 14): above 250 members passive ones would get no messages.
        open: (onMessage: (content: string) => void) =>
          openMany(sessions, (index) => openSocket(gatewayUrl, tokens[index] ?? '', onMessage, world.guildId)),
        send: (content: string) => postMessage(channelUrl, world.owner.token, content),
      },
      {
        name: 'baseline',
        pid: baseline.pid,
        totals: new SideTotals(),
        open: (onMessage: (content: string) => void) =>
          openMany(sessions, () => openSocket(baseline.baseUrl.replace(/^http/, 'ws'), undefined, onMessage)),
        send: (content: string) => postMessage(`${baseline.baseUrl}/channels/1/messages`, undefined, content),
      },
    ];
    const profiler = profileFile !== undefined ? await connectProfiler(inspectPort) : undefined;
    for (let round = 0; round < rounds; round += 1) {
      for (const side of sides) {
        // Chorus's last round is profiled (BENCH_FANOUT_PROFILE): its POSTs and fan-outs, not the connects.
        const profiled = profiler !== undefined && side.pid === chorus.pid && round === rounds - 1;
        let cpuBefore = 0;
        let cpu = 0;
        let counter: { stop(): Promise<number> } | undefined;
        let instructions = Number.NaN;
        const latencies: number[] = [];
        const run = await measureFanout(
          sessions,
          async (onMessage) => {
            const sockets = await side.open(onMessage);
            await quiet(side.pid);
            if (profiled) await profiler.start();
            if (process.env.BENCH_FANOUT_PERF === '1') counter = await countInstructions(side.pid);
            cpuBefore = await cpuMs(side.pid);
            return sockets;
          },
          side.send,
          messages,
          10_000,
          {
            latencies,
            beforeClose: async () => {
              cpu = (await cpuMs(side.pid)) - cpuBefore;
              if (counter) instructions = await counter.stop();
              if (profiled) await profiler.stop(profileFile ?? '');
            },
          },
        );
        // With several rounds the first one warms up (JIT, activations) and is not pooled.
        const warmUp = rounds > 1 && round === 0;
        if (!warmUp) side.totals.add(latencies, run.missing, { cpu, instructions }, messages);
        console.log(
          `round ${round + 1}${warmUp ? ' (warm-up)' : ''} ${side.name}: p50 ${fmt(run.p50)} ms p99 ${fmt(run.p99)} ms cpu ${fmt(cpu / messages, 1)} ms/fan-out ${fmt(instructions / messages / 1e6, 1)} M instructions (missing ${run.missing})`,
        );
      }
    }
    profiler?.close();
    const [c, b] = sides.map((side) => side.totals.result()) as [FanoutSide, FanoutSide];
    console.log(
      `\nFan-out to ${sessions} sessions, ${rounds}×${messages} POSTs | chorus p50 ${fmt(c.p50)} p99 ${fmt(c.p99)} ms, cpu ${fmt(c.cpuMsPerFanout, 1)} ms` +
        ` | bare p50 ${fmt(b.p50)} p99 ${fmt(b.p99)} ms, cpu ${fmt(b.cpuMsPerFanout, 1)} ms` +
        ` | ratio p50 ${fmt(c.p50 / b.p50)}x p99 ${fmt(c.p99 / b.p99)}x cpu ${fmt(c.cpuMsPerFanout / b.cpuMsPerFanout)}x` +
        ` instructions ${fmt(c.mInstructionsPerFanout, 1)} vs ${fmt(b.mInstructionsPerFanout, 1)} M (${fmt(c.mInstructionsPerFanout / b.mInstructionsPerFanout)}x)` +
        ` | missing ${c.missing}/${b.missing}`,
    );
    writeFileSync(out, `${JSON.stringify({ sessions, messages, rounds, chorus: c, baseline: b }, null, 2)}\n`);
  } finally {
    await chorus.stop();
    await baseline.stop();
  }
}
