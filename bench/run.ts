// `npm run bench`: Chorus beside a bare Koa/ws baseline measured in the same run (the machine is shared
// and noisy, so only same-run ratios mean anything). Prints a table and writes bench/results.json (or --out FILE);
// `npm run bench:compare -- before.json after.json` sets two such files side by side.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { addMembers, createWorld, type BenchWorld } from './chorusSetup.js';
import { measureFanout, openMany, openSocket, postMessage, quiet } from './fanout.js';
import { fanoutOnly } from './fanoutOnly.js';
import { httpLines, httpResults, httpSection } from './httpBench.js';
import { clusterBench } from './clusterBench.js';
import { passiveRow } from './passiveBench.js';
import { presenceLines, presenceRow, type PresenceRow } from './presenceBench.js';
import { startBaseline, startChorus, type ServerProcess } from './processes.js';
import { startupLines, startupRow } from './startupBench.js';
import { sessionsSection } from './sessionsBench.js';
import { rssBytes } from './stats.js';
import { voiceBench } from './voiceBench.js';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5_000);
const CLIENTS = [1, 10, 50];
const SESSIONS = (process.env.BENCH_SESSIONS ?? '100,1000').split(',').map(Number);
/** Fan-outs sent before the measured ones at each size, on both servers, after the connects have settled. */
const FANOUT_WARM_UP = 5;
/** The passive row's guild, the 10,000 members (the bench registers with a cheap password cost: seconds). */
const PASSIVE_MEMBERS = Number(process.env.BENCH_PASSIVE_MEMBERS ?? 10_000);
const PASSIVE_SESSIONS = Number(process.env.BENCH_PASSIVE_SESSIONS ?? 1_000);
/** The presence-churn row (issue 11 item 8): sessions in one guild, the share changing status each second. */
const PRESENCE_SESSIONS = Number(process.env.BENCH_PRESENCE_SESSIONS ?? 1_000);
const PRESENCE_SECONDS = Number(process.env.BENCH_PRESENCE_SECONDS ?? 10);
const PRESENCE_SHARE = Number(process.env.BENCH_PRESENCE_SHARE ?? 0.1);
/** Sessions that read and time their PRESENCE_UPDATEs; the others are written to but not read (client cores). */
const PRESENCE_SAMPLE = Number(process.env.BENCH_PRESENCE_SAMPLE ?? 100);
/** Starts of each way (compiled, tsx) in the start-up row. */
const STARTUP_STARTS = Number(process.env.BENCH_STARTUP_STARTS ?? 3);
/** `--out FILE` keeps a run apart (e.g. before.json and after.json for `npm run bench:compare`). */
const outIndex = process.argv.indexOf('--out');
const RESULTS = outIndex > 0 ? resolve(process.argv[outIndex + 1] ?? '') : new URL('./results.json', import.meta.url);

const fmt = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** The POST and history-GET rows beside the bare server's (printed), for results.json. */
async function httpFigures(chorus: ServerProcess, baseline: ServerProcess, world: BenchWorld) {
  const options = { postClients: CLIENTS, getClients: [10], durationMs: DURATION_MS };
  const pairs = await httpSection(chorus, baseline, world, options);
  console.log(httpLines(pairs, DURATION_MS));
  return httpResults(pairs);
}

/** `npm run bench -- --http-only`: the HTTP rows alone, merged into the last results.json. */
async function httpOnly(): Promise<void> {
  const baseline = await startBaseline();
  const chorus = await startChorus(Number(process.env.BENCH_PORT ?? 3901));
  const figures = await httpFigures(chorus, baseline, await createWorld(chorus.baseUrl, 10));
  await chorus.stop();
  await baseline.stop();
  const results = existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as Record<string, unknown>) : {};
  writeFileSync(RESULTS, `${JSON.stringify({ ...results, ...figures }, null, 2)}\n`);
}

/** The presence-churn row against a running baseline, on a Chorus node of its own. */
async function presence(baseline: ServerProcess): Promise<PresenceRow> {
  const row = await presenceRow({
    sessions: PRESENCE_SESSIONS,
    seconds: PRESENCE_SECONDS,
    share: PRESENCE_SHARE,
    sample: PRESENCE_SAMPLE,
    drainMs: 30_000,
    port: Number(process.env.BENCH_PORT ?? 3901) + 1,
    baseline,
    openMany: (count, open) => openMany(count, open),
  });
  console.log(presenceLines(row, PRESENCE_SECONDS));
  return row;
}

/** The voice section (issue 13 §7) on a Chorus node of its own, three ports above the bench's. */
const voiceRows = async (): Promise<unknown> => (await voiceBench(Number(process.env.BENCH_PORT ?? 3901) + 3)).rows;

/** `npm run bench:voice` (run.ts --voice-only): that section alone, its figures merged into the last results.json. */
async function voiceOnly(): Promise<void> {
  const voice = await voiceRows();
  const results = existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as Record<string, unknown>) : {};
  writeFileSync(RESULTS, `${JSON.stringify({ ...results, voice }, null, 2)}\n`);
}

/** `npm run bench:presence` (run.ts --presence-only): that row alone, its figures merged into the last results.json. */
async function presenceOnly(): Promise<void> {
  const baseline = await startBaseline();
  const row = await presence(baseline);
  await baseline.stop();
  const results = existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as Record<string, unknown>) : {};
  writeFileSync(RESULTS, `${JSON.stringify({ ...results, presence: row }, null, 2)}\n`);
}

async function main(): Promise<void> {
  if (process.argv.includes('--http-only')) return httpOnly();
  const results: Record<string, unknown> = {
    machine: { cores: (await import('node:os')).cpus().length },
    durationMs: DURATION_MS,
  };

  const baseline = await startBaseline();
  const startup = await startupRow(STARTUP_STARTS, baseline);
  console.log(startupLines(startup));
  results.startup = startup;
  const chorus = await startChorus(Number(process.env.BENCH_PORT ?? 3901));
  const world = await createWorld(chorus.baseUrl, 10);
  const httpFigs = await httpFigures(chorus, baseline, world);
  Object.assign(results, httpFigs);

  const fanout: Record<string, unknown>[] = [];
  let members: { token: string; id: string }[] = [];
  const channelPath = `/api/v10/channels/${world.channelIds[0] ?? ''}/messages`;
  const gatewayUrl = `${chorus.baseUrl.replace(/^http/, 'ws')}/?v=10&encoding=json`;
  for (const sessions of SESSIONS) {
    members = members.concat(await addMembers(chorus.baseUrl, world, sessions - members.length));
    const messages = sessions >= 1000 ? 20 : 30;
    await quiet(chorus.pid);
    const rssBefore = await rssBytes(chorus.pid);
    let rssAfter = 0;
    const chorusRun = await measureFanout(
      sessions,
      async (onMessage) => {
        const opened = await openMany(
          sessions,
          (() => {
            let index = 0;
            // Every session looks at the guild (op 14): above 250 members passive ones would get no messages.
            return () => openSocket(gatewayUrl, (members[index++] ?? world.owner).token, onMessage, world.guildId);
          })(),
        );
        await quiet(chorus.pid);
        rssAfter = await rssBytes(chorus.pid);
        return opened;
      },
      (content) => postMessage(`${chorus.baseUrl}${channelPath}`, world.owner.token, content),
      messages,
      10_000,
      { warmUp: FANOUT_WARM_UP },
    );
    await quiet(baseline.pid);
    const baseRssBefore = await rssBytes(baseline.pid);
    let baseRssAfter = 0;
    const baseRun = await measureFanout(
      sessions,
      async (onMessage) => {
        const opened = await openMany(sessions, () =>
          openSocket(baseline.baseUrl.replace(/^http/, 'ws'), undefined, onMessage),
        );
        await quiet(baseline.pid);
        baseRssAfter = await rssBytes(baseline.pid);
        return opened;
      },
      (content) => postMessage(`${baseline.baseUrl}/channels/1/messages`, undefined, content),
      messages,
      10_000,
      { warmUp: FANOUT_WARM_UP },
    );
    const perSession = (rssAfter - rssBefore) / sessions;
    const basePerSession = (baseRssAfter - baseRssBefore) / sessions;
    fanout.push({
      sessions,
      chorus: chorusRun,
      baseline: baseRun,
      rssPerSessionBytes: perSession,
      baselineRssPerSessionBytes: basePerSession,
    });
    console.log(
      `\nFan-out at ${sessions} sessions: chorus p50 ${fmt(chorusRun.p50, 2)} ms p99 ${fmt(chorusRun.p99, 2)} ms (missing ${chorusRun.missing}) ` +
        `| baseline p50 ${fmt(baseRun.p50, 2)} ms p99 ${fmt(baseRun.p99, 2)} ms | p99 ratio ${fmt(chorusRun.p99 / baseRun.p99, 2)}x` +
        `\n  RSS per idle session: chorus ${fmt(perSession / 1024)} KB | baseline ${fmt(basePerSession / 1024)} KB` +
        ` | ratio ${fmt(perSession / basePerSession, 1)}x (at this count the heap left by the rows before weighs in:` +
        ' the connect storm below reads it over 10,000 settled sessions)',
    );
  }
  results.fanout = fanout;

  const passive = await passiveRow({
    baseUrl: chorus.baseUrl,
    gatewayUrl,
    world,
    members,
    guildMembers: PASSIVE_MEMBERS,
    sessions: PASSIVE_SESSIONS,
    messages: 20,
    openMany: (count, open) => openMany(count, open),
    send: (content) => postMessage(`${chorus.baseUrl}${channelPath}`, world.owner.token, content),
  });
  const bare = fanout.find((row) => row.sessions === PASSIVE_SESSIONS)?.baseline as { p99: number } | undefined;
  const line = (name: string, run: typeof passive.allActive) =>
    `  ${name}: ${run.activeSessions} active | frames/message ${fmt(run.framesPerMessage, 0)} | p50 ${fmt(run.p50, 2)} ms p99 ${fmt(run.p99, 2)} ms (missing ${run.missing})`;
  console.log(
    `\nLarge guild, passive sessions: ${passive.guildMembers} members${passive.guildMembers < 10_000 ? ' (fewer than the 10,000 of the issue: BENCH_PASSIVE_MEMBERS)' : ''}, ${passive.sessions} connected user sessions` +
      `\n${line('all active', passive.allActive)}\n${line('90% passive', passive.passive)}` +
      `\n  bare baseline at ${PASSIVE_SESSIONS} sockets: frames/message ${PASSIVE_SESSIONS} | p99 ${fmt(bare?.p99 ?? NaN, 2)} ms` +
      ` | frames ratio passive/all-active ${fmt(passive.passive.framesPerMessage / passive.allActive.framesPerMessage, 2)}` +
      ` | p99 ratio to bare: all active ${fmt(passive.allActive.p99 / (bare?.p99 ?? NaN), 2)}x, passive ${fmt(passive.passive.p99 / (bare?.p99 ?? NaN), 2)}x`,
  );
  results.passive = { ...passive, baselineP99: bare?.p99 ?? null };
  await chorus.stop();
  results.presence = await presence(baseline);
  results.sessions = await sessionsSection(baseline);
  await baseline.stop();
  results.voice = await voiceRows();

  if (process.argv.includes('--cluster')) {
    const sessions = SESSIONS[SESSIONS.length - 1] ?? 1000;
    const figures = await clusterBench(DURATION_MS, sessions);
    const embedded10 = httpFigs.http.chorus?.[1];
    const embeddedFanout = fanout[fanout.length - 1]?.chorus as { p50: number; p99: number } | undefined;
    const { local, remote } = figures.actorCalls;
    console.log('\nCluster mode (3 local nodes sharing these cores, Cassandra + Redis + gRPC)');
    console.log(
      `actor call   | local p50 ${fmt(local.p50, 3)} ms p99 ${fmt(local.p99, 3)} ms | remote p50 ${fmt(remote.p50, 3)} ms p99 ${fmt(remote.p99, 3)} ms`,
    );
    console.log(
      `messages/s   | cluster ${fmt(figures.messagesPerSecond, 0)} (p99 ${fmt(figures.p99, 2)} ms) | embedded ${fmt(embedded10?.perSecond ?? NaN, 0)} | ratio ${fmt(figures.messagesPerSecond / (embedded10?.perSecond ?? NaN), 2)}`,
    );
    console.log(
      `fan-out ${sessions} | cluster p50 ${fmt(figures.fanout.p50, 2)} ms p99 ${fmt(figures.fanout.p99, 2)} ms (missing ${figures.fanout.missing}) | embedded p50 ${fmt(embeddedFanout?.p50 ?? NaN, 2)} ms p99 ${fmt(embeddedFanout?.p99 ?? NaN, 2)} ms`,
    );
    results.cluster = figures;
  }
  writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
}

const voiceOrMain = process.argv.includes('--voice-only') ? voiceOnly : main;
// --fanout-only writes its own file unless --out names one: the full run's results.json stays as it was.
const fanoutOut = outIndex > 0 ? RESULTS : new URL('./fanout-results.json', import.meta.url);
const fanoutOrOther = process.argv.includes('--fanout-only') ? () => fanoutOnly(fanoutOut) : voiceOrMain;
await (process.argv.includes('--presence-only') ? presenceOnly : fanoutOrOther)();
