import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createGuild, joinGuild } from '../integration/gateway/gatewayFixtures.js';
import { readAllMessages, type MessageJson } from '../cluster/nodes/clusterFixtures.js';
import { pause, startCluster, until, type ClusterNode, type LogEntry } from '../support/clusterHarness.js';
import { registerUser, type TestUser } from '../support/testServer.js';
import { ChaosPoster } from './ChaosPoster.js';
import { ChaosSession } from './ChaosSession.js';

/** The knobs of a chaos run. */
export interface ChaosOptions {
  readonly nodes: number;
  /** How long posters post and nodes die. */
  readonly durationMs: number;
  /** Between two faults (a kill -9 and restart, or the one SIGSTOP). */
  readonly killIntervalMs: number;
  readonly guilds: number;
  readonly postersPerChannel: number;
  readonly sessions: number;
  /** A poster's pause between two messages. */
  readonly postPauseMs: number;
  /** How long the one SIGSTOP lasts (past the lease ttl of the harness, 1 s); 0: none. */
  readonly stopForMs: number;
  readonly progress?: (line: string) => void;
  /** Where each node's kept log lines are written at the end (none when undefined). */
  readonly logDir?: string;
  /** What happens to the nodes under load (default: kill -9 and restart, one SIGSTOP). */
  readonly inject?: FaultInjector;
}

/** Injects faults into the running nodes for the length of a run; returns what it did. */
export type FaultInjector = (
  nodes: readonly ClusterNode[],
  options: ChaosOptions,
  say: (line: string) => void,
) => Promise<Fault[]>;

export const CI_CHAOS: ChaosOptions = {
  nodes: 3,
  durationMs: 108_000,
  killIntervalMs: 12_000,
  guilds: 3,
  postersPerChannel: 2,
  sessions: 12,
  postPauseMs: 150,
  stopForMs: 4_000,
};

/** A fault the run injected, for the report. */
export interface Fault {
  readonly at: number;
  readonly what: string;
}

/** Everything a run observed; chaosReport turns it into figures. */
export interface ChaosRun {
  readonly options: ChaosOptions;
  readonly posters: readonly ChaosPoster[];
  readonly sessions: readonly ChaosSession[];
  /** Each channel's stored messages after the run. */
  readonly history: ReadonlyMap<string, readonly MessageJson[]>;
  readonly faults: readonly Fault[];
  /** Node log events of interest, counted as they arrived (event → reason → count). */
  readonly events: ReadonlyMap<string, Map<string, number>>;
  /** Sessions that had not caught up when the settle wait ended. */
  readonly unsettled: number;
  /** performance.now() when the faults began (fault times count from it). */
  readonly faultsFrom: number;
}

/** Log events the report counts, with the field that says why. */
const WATCHED: Record<string, string> = {
  session_invalidated: 'reason',
  remote_send_abandoned: 'err',
  remote_send_moved: 'node',
  session_dispatch_dropped: 'err',
  commit_refused: 'reason',
  lease_lost: 'reason',
  resume_auth_retry: 'err',
  gateway_resume_failed: 'err',
  tell_dropped: 'err',
};
const SETTLE_MS = 30_000;

/** Three (or `nodes`) node processes, posters, sessions, faults; always cleans up, even when it throws. */
export async function runChaos(options: ChaosOptions): Promise<ChaosRun> {
  const say = options.progress ?? ((): void => undefined);
  const cluster = await startCluster({ nodes: options.nodes });
  const events = new Map<string, Map<string, number>>();
  const counted = new WeakSet<object>();
  const countEvents = (): void => {
    for (const node of cluster.nodes) {
      for (const entry of node.logs) {
        if (typeof entry === 'string' || counted.has(entry)) continue;
        counted.add(entry);
        const field = WATCHED[entry.event];
        if (field !== undefined) bump(events, entry.event, reasonOf(entry, field));
      }
    }
  };
  const counter = setInterval(countEvents, 500);
  const posters: ChaosPoster[] = [];
  const sessions: ChaosSession[] = [];
  try {
    const running = (): ClusterNode[] => cluster.nodes.filter((node) => node.alive);
    const apiPicker =
      (offset: number) =>
      (attempt: number): string | undefined => {
        const nodes = running();
        return nodes.length === 0 ? undefined : nodes[(offset + attempt) % nodes.length]?.api;
      };
    const gatewayPicker =
      (offset: number) =>
      (attempt: number): string | undefined => {
        const nodes = running();
        return nodes.length === 0 ? undefined : nodes[(offset + attempt) % nodes.length]?.gatewayUrl;
      };
    const first = cluster.nodes[0] as ClusterNode;
    const owner = await registerUser(first.api, 'owner');
    const channels: string[] = [];
    for (let g = 0; g < options.guilds; g += 1)
      channels.push((await createGuild(first.api, owner.token, `chaos ${g}`)).channelId);
    const users: TestUser[] = [owner];
    for (let p = 1; p < Math.max(options.guilds * options.postersPerChannel, 2); p += 1) {
      const user = await registerUser(cluster.nodes[p % options.nodes]!.api, `member`);
      for (const channelId of channels) await joinGuild(first.api, owner.token, channelId, user.token);
      users.push(user);
    }
    say(`cluster up: ${options.nodes} nodes, ${channels.length} channels, ${users.length} users`);
    for (let s = 0; s < options.sessions; s += 1) {
      const session = new ChaosSession(`session${s + 1}`, users[s % users.length]!.token, gatewayPicker(s));
      sessions.push(session);
      session.start();
    }
    await until('every session READY', () => Promise.resolve(sessions.every((s) => s.connected) || undefined), {
      timeoutMs: 30_000,
    });
    channels.forEach((channelId, c) => {
      for (let p = 0; p < options.postersPerChannel; p += 1) {
        const index = c * options.postersPerChannel + p;
        const user = users[index % users.length]!;
        posters.push(new ChaosPoster(`p${index + 1}`, user.token, channelId, apiPicker(index), options.postPauseMs));
      }
    });
    for (const poster of posters) poster.start();
    say(`${sessions.length} sessions READY; ${posters.length} posters started`);

    const faultsFrom = performance.now();
    const faults = await (options.inject ?? injectFaults)(cluster.nodes, options, say);
    await Promise.all(posters.map((poster) => poster.stop()));
    for (const node of cluster.nodes) if (!node.alive) await node.start();
    await cluster.waitForMembers(cluster.nodes, 30_000);
    say('faults over, every node up: waiting for sessions to catch up');
    const acked = posters.flatMap((poster) => poster.acked);
    const behind = (): number =>
      sessions.filter((session) => {
        const lineage = session.current;
        if (!lineage) return true;
        return acked.some((post) => post.firstSentAt > lineage.readyAt && !lineage.seen.has(post.id));
      }).length;
    const settleUntil = performance.now() + SETTLE_MS;
    while (behind() > 0 && performance.now() < settleUntil) await pause(250);
    const unsettled = behind();
    await Promise.all(sessions.map((session) => session.stop()));
    const history = new Map<string, MessageJson[]>();
    for (const channelId of channels) history.set(channelId, await readAllMessages(first, owner.token, channelId));
    countEvents();
    return { options, posters, sessions, history, faults, events, unsettled, faultsFrom };
  } finally {
    clearInterval(counter);
    if (options.logDir) await writeNodeLogs(cluster.nodes, options.logDir).catch(() => undefined);
    await Promise.allSettled([...posters.map((p) => p.stop()), ...sessions.map((s) => s.stop())]);
    await cluster.after();
  }
}

/** Kill -9 and restart a node every interval (only while all run), and one SIGSTOP past the lease ttl midway. */
async function injectFaults(
  nodes: readonly ClusterNode[],
  options: ChaosOptions,
  say: (line: string) => void,
): Promise<Fault[]> {
  const faults: Fault[] = [];
  const startedAt = performance.now();
  const elapsed = (): number => performance.now() - startedAt;
  let stopped = options.stopForMs <= 0;
  for (let round = 1; elapsed() + options.killIntervalMs <= options.durationMs; round += 1) {
    await pause(Math.max(0, round * options.killIntervalMs - elapsed()));
    const victim = nodes[Math.floor(Math.random() * nodes.length)] as ClusterNode;
    if (!stopped && round * options.killIntervalMs >= options.durationMs / 2) {
      stopped = true;
      faults.push({ at: elapsed(), what: `SIGSTOP ${victim.name} for ${options.stopForMs} ms` });
      say(`t=${(elapsed() / 1000).toFixed(0)}s SIGSTOP ${victim.name}`);
      victim.kill('SIGSTOP');
      await pause(options.stopForMs);
      victim.kill('SIGCONT');
      continue;
    }
    faults.push({ at: elapsed(), what: `kill -9 ${victim.name}` });
    say(`t=${(elapsed() / 1000).toFixed(0)}s kill -9 ${victim.name}`);
    victim.kill('SIGKILL');
    await victim.exited();
    await pause(1_000);
    await victim.start();
  }
  return faults;
}

function reasonOf(entry: LogEntry, field: string): string {
  const raw = entry[field];
  const value = typeof raw === 'string' ? raw : JSON.stringify(raw ?? '');
  // Ids and addresses vary per run; the report groups by what happened.
  return value
    .replace(/127\.0\.0\.1:\d+@\d+/g, '<node>')
    .replace(/\d{6,}/g, '<id>')
    .slice(0, 90);
}

function bump(events: Map<string, Map<string, number>>, event: string, reason: string): void {
  let reasons = events.get(event);
  if (!reasons) events.set(event, (reasons = new Map<string, number>()));
  reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
}

async function writeNodeLogs(nodes: readonly ClusterNode[], dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const node of nodes) {
    const lines = node.logs.map((entry) => (typeof entry === 'string' ? entry : JSON.stringify(entry)));
    await writeFile(join(dir, `${node.name}.log`), `${lines.join('\n')}\n`);
  }
}
