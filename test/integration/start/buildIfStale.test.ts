import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * scripts/build.mjs, `npm start`'s prestart, on a scratch project laid out like Chorus (CHORUS_BUILD_ROOT): it
 * compiles only when dist/ is missing or older than a source, and one build at a time.
 */
const BUILD = fileURLToPath(new URL('../../../scripts/build.mjs', import.meta.url));

interface BuildRun {
  readonly code: number;
  readonly stderr: string;
}

function build(root: string, ...args: string[]): Promise<BuildRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BUILD, ...args],
      { env: { ...process.env, CHORUS_BUILD_ROOT: root } },
      (error, _stdout, stderr) => {
        resolve({ code: typeof error?.code === 'number' ? error.code : 0, stderr });
      },
    );
  });
}

const compiled = (run: BuildRun): boolean => run.stderr.includes('compiling to dist/');

function scratchProject(): string {
  const root = mkdtempSync(join(tmpdir(), 'chorus-build-'));
  writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
  const compilerOptions = {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    outDir: 'dist',
    rootDir: '.',
    sourceMap: true,
    noCheck: true,
    incremental: true,
    tsBuildInfoFile: 'dist/.tsbuildinfo',
    types: [],
  };
  writeFileSync(join(root, 'tsconfig.build.json'), JSON.stringify({ compilerOptions, include: ['src'] }));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'main.ts'), 'export const answer: number = 42;\n');
  return root;
}

describe('npm start builds dist/ only when it is stale (scripts/build.mjs --if-stale)', function () {
  this.timeout(60_000);
  let root = '';

  beforeEach(() => {
    root = scratchProject();
  });

  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('compiles a project without dist/ (with source maps), then finds it fresh and does nothing', async () => {
    const first = await build(root, '--if-stale');
    assert.equal(first.code, 0, first.stderr);
    assert.ok(compiled(first), first.stderr);
    assert.ok(existsSync(join(root, 'dist', 'src', 'main.js')));
    assert.ok(existsSync(join(root, 'dist', 'src', 'main.js.map')));
    const second = await build(root, '--if-stale');
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.stderr, '');
  });

  it('compiles again once a source file is newer than the last build, and always without --if-stale', async () => {
    assert.ok(compiled(await build(root, '--if-stale')));
    // Saved now, after the build started (its stamp carries the start time).
    utimesSync(join(root, 'src', 'main.ts'), new Date(), new Date());
    const stale = await build(root, '--if-stale');
    assert.ok(compiled(stale), stale.stderr);
    assert.equal((await build(root, '--if-stale')).stderr, '');
    assert.ok(compiled(await build(root)));
  });

  it('two starts at once compile once: the second waits for the lock, then finds dist/ fresh', async () => {
    const runs = await Promise.all([build(root, '--if-stale'), build(root, '--if-stale')]);
    assert.deepEqual(
      runs.map((run) => run.code),
      [0, 0],
    );
    assert.equal(runs.filter(compiled).length, 1, runs.map((run) => run.stderr).join('\n---\n'));
    assert.ok(!existsSync(join(root, 'dist', '.build-lock')), 'the lock is released');
  });

  it('breaks a lock whose build process is gone', async () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    mkdirSync(join(root, 'dist', '.build-lock'), { recursive: true });
    writeFileSync(join(root, 'dist', '.build-lock', 'pid'), gone.stdout);
    const run = await build(root, '--if-stale');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, new RegExp(`removing the lock of build process ${gone.stdout}, which is gone`));
    assert.ok(compiled(run));
  });

  it('emits without type-checking (the typecheck gate does that) but fails on a syntax error, unmarked', async () => {
    writeFileSync(join(root, 'src', 'wrong.ts'), 'export const count: number = "three";\n');
    const typed = await build(root, '--if-stale');
    assert.equal(typed.code, 0, typed.stderr);
    assert.ok(existsSync(join(root, 'dist', 'src', 'wrong.js')));

    writeFileSync(join(root, 'src', 'broken.ts'), 'export const = ;\n');
    const broken = await build(root, '--if-stale');
    assert.equal(broken.code, 1, broken.stderr);
    assert.match(broken.stderr, /tsc failed \(2\); dist\/ is not marked built/);
    assert.ok(!existsSync(join(root, 'dist', '.build-lock')), 'the lock is released after a failed build');
    assert.ok(compiled(await build(root, '--if-stale')), 'still stale: the next start tries again');
  });
});
