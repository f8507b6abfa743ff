import type { ChaosRun } from './chaosRun.js';

/** One session lineage's figures. */
export interface LineageFigures {
  readonly session: string;
  readonly sessionId: string;
  /** Acknowledged messages first posted after its READY (and before its op 9, if any). */
  readonly expected: number;
  readonly missing: number;
  readonly duplicates: number;
  readonly resumes: number;
  readonly seqGaps: number;
  /** Set when the client was told op 9: while resuming or on a live socket. */
  readonly op9?: 'resuming' | 'live';
  /** A few missing messages: content @ seconds since the faults began (first attempt–acknowledgment). */
  readonly missingSample: readonly string[];
}

/** What a run comes to. */
export interface ChaosFigures {
  readonly acknowledged: number;
  /** Acknowledged but not stored under their id. */
  readonly lost: number;
  /** Stored more than once (same content). */
  readonly duplicatedInHistory: number;
  readonly givenUp: number;
  readonly unexpected: readonly string[];
  readonly lineages: readonly LineageFigures[];
  /** Missing deliveries of lineages never told op 9: must be 0. */
  readonly missingUntold: number;
  /** Missing deliveries of lineages that were told op 9 (their clients know to re-read). */
  readonly missingTold: number;
  readonly duplicateDeliveries: number;
  readonly op7: number;
  /** Per channel: the longest time from a message's first attempt to its acknowledgment. */
  readonly longestUnavailableMs: ReadonlyMap<string, number>;
  readonly unsettled: number;
}

export function chaosFigures(run: ChaosRun): ChaosFigures {
  const acked = run.posters.flatMap((poster) => poster.acked);
  let lost = 0;
  let duplicatedInHistory = 0;
  for (const [channelId, stored] of run.history) {
    const ids = new Set(stored.map((message) => message.id));
    lost += acked.filter((post) => post.channelId === channelId && !ids.has(post.id)).length;
    const copies = new Map<string, number>();
    for (const message of stored) copies.set(message.content, (copies.get(message.content) ?? 0) + 1);
    for (const count of copies.values()) if (count > 1) duplicatedInHistory += count - 1;
  }
  const lineages: LineageFigures[] = [];
  for (const session of run.sessions) {
    for (const lineage of session.lineages) {
      const until = lineage.invalidatedAt ?? Number.POSITIVE_INFINITY;
      const expected = acked.filter((post) => post.firstSentAt > lineage.readyAt && post.ackedAt < until);
      const missed = expected.filter((post) => !lineage.seen.has(post.id));
      const at = (ms: number): string => ((ms - run.faultsFrom) / 1000).toFixed(1);
      let duplicates = 0;
      for (const count of lineage.seen.values()) duplicates += count - 1;
      lineages.push({
        session: session.name,
        sessionId: lineage.sessionId,
        expected: expected.length,
        missing: missed.length,
        missingSample: missed
          .slice(0, 4)
          .map((post) => `${post.content} @${at(post.firstSentAt)}–${at(post.ackedAt)}s`),
        duplicates,
        resumes: lineage.resumes,
        seqGaps: lineage.seqGaps,
        ...(lineage.invalidatedWhile ? { op9: lineage.invalidatedWhile } : {}),
      });
    }
  }
  const longestUnavailableMs = new Map<string, number>();
  for (const post of acked) {
    const waited = post.ackedAt - post.firstSentAt;
    longestUnavailableMs.set(post.channelId, Math.max(longestUnavailableMs.get(post.channelId) ?? 0, waited));
  }
  const sum = (values: number[]): number => values.reduce((total, value) => total + value, 0);
  return {
    acknowledged: acked.length,
    lost,
    duplicatedInHistory,
    givenUp: sum(run.posters.map((poster) => poster.givenUp)),
    unexpected: run.posters.flatMap((poster) => poster.unexpected),
    lineages,
    missingUntold: sum(lineages.filter((l) => !l.op9).map((l) => l.missing)),
    missingTold: sum(lineages.filter((l) => l.op9).map((l) => l.missing)),
    duplicateDeliveries: sum(lineages.map((l) => l.duplicates)),
    op7: sum(run.sessions.map((session) => session.op7)),
    longestUnavailableMs,
    unsettled: run.unsettled,
  };
}

/** The summary table `npm run chaos` prints (and the CI test logs). */
export function chaosTable(run: ChaosRun, figures: ChaosFigures): string {
  const { options } = run;
  const kills = run.faults.filter((fault) => fault.what.startsWith('kill')).length;
  const stops = run.faults.length - kills;
  const lines = [
    `chaos: ${options.nodes} nodes, ${(options.durationMs / 1000).toFixed(0)} s, a fault every ` +
      `${(options.killIntervalMs / 1000).toFixed(0)} s: ${kills} kill -9, ${stops} SIGSTOP`,
    '',
    row('acknowledged messages', figures.acknowledged),
    row('lost (acknowledged, not stored)', figures.lost),
    row('duplicated in history', figures.duplicatedInHistory),
    row('posts given up (never acknowledged)', figures.givenUp),
    row('unexpected answers (4xx)', figures.unexpected.length),
    row('missing deliveries, sessions never told op 9', figures.missingUntold),
    row('missing deliveries, sessions told op 9', figures.missingTold),
    row('duplicate deliveries (allowed)', figures.duplicateDeliveries),
    row('op 7 received', figures.op7),
    row('op 9 received', figures.lineages.filter((l) => l.op9).length),
    row('sessions not caught up at the end', figures.unsettled),
    '',
    'per session lineage (session, id, expected, missing, duplicates, resumes, seq gaps, op 9):',
    ...figures.lineages.map(
      (l) =>
        `  ${l.session.padEnd(10)} ${l.sessionId.slice(0, 8)} ${pad(l.expected)} ${pad(l.missing)} ` +
        `${pad(l.duplicates)} ${pad(l.resumes)} ${pad(l.seqGaps)}  ${l.op9 ? `op 9 while ${l.op9}` : '-'}` +
        (l.missing > 0 ? `  missed: ${l.missingSample.join(', ')}` : ''),
    ),
    '',
    'longest unavailability per channel (first attempt to acknowledgment):',
    ...[...figures.longestUnavailableMs].map(([channel, ms]) => `  channel ${channel}: ${(ms / 1000).toFixed(1)} s`),
    '',
    'node log events (event: reason ×count):',
    ...[...run.events].flatMap(([event, reasons]) =>
      [...reasons].map(([reason, count]) => `  ${event}: ${reason || '-'} ×${count}`),
    ),
    '',
    'faults:',
    ...run.faults.map((fault) => `  t=${(fault.at / 1000).toFixed(1)} s ${fault.what}`),
  ];
  if (figures.unexpected.length > 0) lines.push('', 'unexpected answers:', ...figures.unexpected.slice(0, 10));
  return lines.join('\n');
}

const row = (label: string, value: number): string => `  ${label.padEnd(48)} ${value}`;
const pad = (value: number): string => String(value).padStart(6);
