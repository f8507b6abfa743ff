import { addMembers, createWorld } from './chorusSetup.js';
import { openChurnSocket, runChurn, type ChurnOptions, type ChurnRun, type ChurnSocket } from './presenceChurn.js';
import { startChorus, type ServerProcess } from './processes.js';

/** The presence-churn row: the same traffic on Chorus and on the bare baseline. */
export interface PresenceRow {
  readonly chorus: ChurnRun;
  readonly baseline: ChurnRun;
}

/** What the row needs from the run that hosts it. */
export interface PresenceSetup extends Omit<ChurnOptions, 'pid'> {
  readonly sessions: number;
  /** Port for the row's own Chorus node (it needs its own settings, below). */
  readonly port: number;
  readonly baseline: ServerProcess;
  readonly openMany: (count: number, open: () => Promise<ChurnSocket>) => Promise<ChurnSocket[]>;
}

const wsUrl = (baseUrl: string): string => baseUrl.replace(/^http/, 'ws');

/**
 * Issue 11 item 8: one guild of `sessions` distinct users, one session each, `share` of them changing status
 * every second. Above CHORUS_LARGE_GUILD_MEMBERS (250) a guild sends user accounts no PRESENCE_UPDATE at all, so
 * the row's Chorus node raises it above the guild: every status change reaches every other session, the
 * square-of-the-guild cost the threshold exists to avoid, measured beside a bare server re-broadcasting each op 3.
 * The sessions send no op 14 (a watched member list is re-sent on every presence change, another cost).
 */
export async function presenceRow(setup: PresenceSetup): Promise<PresenceRow> {
  const chorus = await startChorus(setup.port, { CHORUS_LARGE_GUILD_MEMBERS: String(setup.sessions * 10) });
  let chorusRun: ChurnRun;
  let chorusSockets: ChurnSocket[] = [];
  try {
    const world = await createWorld(chorus.baseUrl, 1);
    const users = [world.owner, ...(await addMembers(chorus.baseUrl, world, setup.sessions - 1))];
    const gatewayUrl = `${wsUrl(chorus.baseUrl)}/?v=10&encoding=json`;
    const measured = await runChurn({ ...setup, pid: chorus.pid }, (listens, onPresence, onClose) => {
      let index = 0;
      return setup.openMany(setup.sessions, () => {
        const receiver = index++;
        return openChurnSocket(gatewayUrl, users[receiver]?.token, listens(receiver), onPresence(receiver), onClose);
      });
    });
    chorusRun = measured.run;
    chorusSockets = measured.sockets;
  } finally {
    // Stopped before its sockets close: each closing session would take its user offline, a storm of its own.
    await chorus.stop();
    for (const socket of chorusSockets) socket.close();
  }
  const baseline = await runChurn({ ...setup, pid: setup.baseline.pid }, (listens, onPresence, onClose) => {
    let index = 0;
    return setup.openMany(setup.sessions, () => {
      const receiver = index++;
      const url = wsUrl(setup.baseline.baseUrl);
      return openChurnSocket(url, undefined, listens(receiver), onPresence(receiver), onClose);
    });
  });
  for (const socket of baseline.sockets) socket.close();
  return { chorus: chorusRun, baseline: baseline.run };
}

const fmt = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** The row as printed by `npm run bench`. */
export function presenceLines(row: PresenceRow, seconds: number): string {
  const { chorus, baseline } = row;
  const line = (name: string, run: ChurnRun): string =>
    `  ${name}: CPU ${fmt(run.cpuMsPerUpdate, 2)} ms/update (${fmt(run.cpuMs, 0)} ms for ${run.updates}) | wall ${fmt(run.wallMs / 1000, 1)} s` +
    ` | fan-out p50 ${fmt(run.p50, 2)} ms p99 ${fmt(run.p99, 2)} ms | delivered ${run.deliveries}/${run.expected}` +
    (run.closedDuringRun > 0 ? ` | sockets closed ${run.closedDuringRun}` : '') +
    // Short of every delivery the server fell behind: the CPU it got undercounts what the updates cost.
    (run.missing > 0 ? ' | FELL BEHIND: CPU/update and latency are lower bounds' : '');
  return (
    `\nPresence churn: ${chorus.sessions} sessions in one guild, ${fmt((chorus.updates / seconds / chorus.sessions) * 100, 0)}% changing status per second for ${seconds} s` +
    ` (${chorus.sampledReceivers} sessions read and time their PRESENCE_UPDATEs, the others are written to unread)` +
    `\n${line('chorus  ', chorus)}\n${line('baseline', baseline)}` +
    `\n  ratios: CPU/update ${fmt(chorus.cpuMsPerUpdate / baseline.cpuMsPerUpdate, 1)}x | p99 ${fmt(chorus.p99 / baseline.p99, 1)}x`
  );
}
