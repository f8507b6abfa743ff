import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cell, compareRuns, compareTable, figuresOf } from '../../../bench/compareRuns.js';

/** A results file shaped like bench/run.ts writes it (fewer rows). */
function run(scale: number, baselineScale = 1): Record<string, unknown> {
  return {
    durationMs: 5_000,
    startup: {
      compiled: { entry: 'compiled', startsMs: [900, 800, 1000], startMs: 900 * scale, rssBytes: 100e6 * scale },
      tsx: { entry: 'tsx', startsMs: [1500], startMs: 1500, rssBytes: 150e6 },
      baselineRssBytes: 50e6 * baselineScale,
    },
    http: {
      chorus: [
        { clients: 1, perSecond: 400 * scale, p99: 4, errors: 0 },
        { clients: 10, perSecond: 1000 * scale, p99: 20, errors: 0 },
      ],
      baseline: [
        { clients: 10, perSecond: 4000 * baselineScale, p99: 5, errors: 0 },
        { clients: 1, perSecond: 800 * baselineScale, p99: 2, errors: 0 },
      ],
    },
    fanout: [
      {
        sessions: 100,
        chorus: { p99: 30 * scale },
        baseline: { p99: 10 },
        rssPerSessionBytes: 8_000,
        baselineRssPerSessionBytes: 2_000,
      },
    ],
    passive: { allActive: { p99: 60 }, passive: { p99: 20 }, baselineP99: 40 },
    // The voice section names its baselines `bare` and repeats the row parameter inside each run.
    voice: [
      { members: 10, chorus: { members: 10, p99: 3 * scale }, bare: { members: 10, p99: 1 }, bareAead: { p99: 2 } },
    ],
  };
}

const byPath = <T extends { path: string }>(rows: readonly T[], path: string): T => {
  const row = rows.find((candidate) => candidate.path === path);
  assert.ok(row, `no row ${path} in ${rows.map((candidate) => candidate.path).join(', ')}`);
  return row;
};

describe('bench comparison (npm run bench:compare)', () => {
  it('pairs each Chorus figure with the bare baseline of the same row, matched by its parameter, not its index', () => {
    const figures = figuresOf(run(1));
    assert.equal(byPath(figures, 'http.chorus[clients=10].perSecond').baseline, 4000);
    assert.equal(byPath(figures, 'http.chorus[clients=1].p99').baseline, 2);
    assert.equal(byPath(figures, 'fanout[sessions=100].chorus.p99').baseline, 10);
    assert.equal(byPath(figures, 'fanout[sessions=100].rssPerSessionBytes').baseline, 2_000);
    assert.equal(byPath(figures, 'passive.allActive.p99').baseline, 40, 'baselineP99 beside an ancestor');
    assert.equal(byPath(figures, 'voice[members=10].chorus.p99').baseline, 1, 'a `bare` twin');
    assert.equal(byPath(figures, 'startup.compiled.rssBytes').baseline, 50e6);
    assert.equal(byPath(figures, 'startup.compiled.startMs').baseline, undefined, 'no bare start-up figure');
  });

  it('leaves out row parameters, labels and raw sample arrays', () => {
    const paths = figuresOf(run(1)).map((figure) => figure.path);
    const parameters = /\.(clients|sessions|members)$/;
    assert.ok(!paths.some((path) => parameters.test(path)), paths.join(', '));
    assert.ok(!paths.some((path) => path.includes('startsMs')), paths.join(', '));
    assert.ok(paths.includes('durationMs'));
  });

  it('gives the change in % and each run its own baseline ratio, so a faster baseline is not mistaken for a gain', () => {
    // After: Chorus 20% faster in raw msg/s, but its baseline 50% faster too (a quieter machine).
    const rows = compareRuns(run(1), run(1.2, 1.5));
    const http = byPath(rows, 'http.chorus[clients=10].perSecond');
    assert.equal(http.before, 1000);
    assert.equal(http.after, 1200);
    assert.ok(Math.abs((http.changePercent ?? NaN) - 20) < 1e-9);
    assert.equal(http.beforeRatio, 0.25);
    assert.ok(Math.abs((http.afterRatio ?? NaN) - 0.2) < 1e-9);
  });

  it('keeps figures only one run has, with no change', () => {
    const before = run(1);
    const after: Record<string, unknown> = { ...run(1), presence: { chorus: { p99: 7 }, baseline: { p99: 3 } } };
    delete after.passive;
    const rows = compareRuns(before, after);
    const added = byPath(rows, 'presence.chorus.p99');
    assert.deepEqual(added, { path: 'presence.chorus.p99', after: 7, afterRatio: 7 / 3 });
    const gone = byPath(rows, 'passive.allActive.p99');
    assert.deepEqual(gone, { path: 'passive.allActive.p99', before: 60, beforeRatio: 1.5 });
    assert.equal(rows.at(-1)?.path.startsWith('passive.'), true, 'figures of the before run only come last');
  });

  it('prints one aligned line per figure with the change and both ratios', () => {
    const table = compareTable(compareRuns(run(1), run(1.2))).split('\n');
    assert.match(table[0] ?? '', /^figure\s+before\s+after\s+change\s+before\/bare\s+after\/bare$/);
    const line = table.find((text) => text.startsWith('http.chorus[clients=1].perSecond '));
    assert.match(line ?? '', /\s400\s+480\s+\+20\.0%\s+0\.5x\s+0\.6x$/);
    assert.equal(cell(0.123456), '0.123');
    assert.equal(cell(123.6), '124');
    assert.equal(cell(undefined), '-');
  });

  it('npm run bench:compare prints the table for two files and a usage line for a wrong call', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chorus-compare-'));
    const root = fileURLToPath(new URL('../../..', import.meta.url));
    const tsx = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
      new Promise((resolve) => {
        execFile(
          process.execPath,
          ['--import', 'tsx', 'bench/compare.ts', ...args],
          { cwd: root },
          (error, stdout, stderr) => {
            resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
          },
        );
      });
    try {
      writeFileSync(join(dir, 'before.json'), JSON.stringify(run(1)));
      writeFileSync(join(dir, 'after.json'), JSON.stringify(run(0.5)));
      const ok = await tsx([join(dir, 'before.json'), join(dir, 'after.json')]);
      assert.equal(ok.code, 0, ok.stderr);
      assert.match(ok.stdout, /fanout\[sessions=100\]\.chorus\.p99\s+30\s+15\s+-50\.0%\s+3x\s+1\.5x/);
      const usage = await tsx([join(dir, 'before.json')]);
      assert.equal(usage.code, 2);
      assert.match(usage.stderr, /usage: npm run bench:compare/);
      writeFileSync(join(dir, 'broken.json'), '{"http":');
      const broken = await tsx([join(dir, 'before.json'), join(dir, 'broken.json')]);
      assert.equal(broken.code, 1);
      assert.match(broken.stderr, /broken\.json: not a bench results file/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
