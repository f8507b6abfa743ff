/**
 * `npm run chaos -- --nodes 3 --duration 600 --kill-interval 15 [--log-dir DIR]`: the chaos test of
 * test/chaos for as long as you like, printing its summary table (and each node's log into DIR). Needs Redis and Cassandra (bash scripts/services-up.sh).
 * Exits 1 when an acknowledged message was lost or duplicated in history, or a session never told op 9
 * missed one.
 */
import { parseArgs } from 'node:util';
import { chaosFigures, chaosTable } from '../test/chaos/chaosReport.js';
import { CI_CHAOS, runChaos } from '../test/chaos/chaosRun.js';

const { values } = parseArgs({
  options: {
    nodes: { type: 'string', default: String(CI_CHAOS.nodes) },
    duration: { type: 'string', default: String(CI_CHAOS.durationMs / 1000) },
    'kill-interval': { type: 'string', default: String(CI_CHAOS.killIntervalMs / 1000) },
    sessions: { type: 'string', default: String(CI_CHAOS.sessions) },
    guilds: { type: 'string', default: String(CI_CHAOS.guilds) },
    'stop-for': { type: 'string', default: String(CI_CHAOS.stopForMs / 1000) },
    'log-dir': { type: 'string' },
  },
});

const seconds = (name: string, text: string | undefined): number => {
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a number of seconds, not ${text}`);
  return value * 1000;
};

// Ctrl-C: exit through process.exit, whose hook (test/support/clusterNode.ts) kills every node process.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

const run = await runChaos({
  ...CI_CHAOS,
  nodes: Math.max(2, Math.floor(Number(values.nodes))),
  durationMs: seconds('duration', values.duration),
  killIntervalMs: seconds('kill-interval', values['kill-interval']),
  sessions: Math.max(1, Math.floor(Number(values.sessions))),
  guilds: Math.max(1, Math.floor(Number(values.guilds))),
  stopForMs: seconds('stop-for', values['stop-for']),
  ...(values['log-dir'] ? { logDir: values['log-dir'] } : {}),
  progress: (line) => {
    console.log(line);
  },
});
const figures = chaosFigures(run);
console.log(`\n${chaosTable(run, figures)}`);
const failed = figures.lost > 0 || figures.duplicatedInHistory > 0 || figures.missingUntold > 0;
process.exit(failed ? 1 : 0);
