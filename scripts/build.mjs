#!/usr/bin/env node
// Compiles the server (src, actors, cluster, proto/gen) to dist/ with source maps, per tsconfig.build.json.
//
//   node scripts/build.mjs             always compile (`npm run build`)
//   node scripts/build.mjs --if-stale  compile only when dist/ is missing or older than the sources
//                                      (`npm start`'s prestart, the bench, the compiled-start test)
//
// The build emits without type-checking (noCheck: under half the CPU time of a checked build, the same output):
// type errors are the typecheck gate's business (npm test, CI), and tsx ran the sources unchecked before.
// Plain JavaScript so that it runs before anything is compiled and without a TypeScript loader. Builds are
// incremental (dist/.tsbuildinfo) and serialized by a lock directory: helpers and tests share one working
// tree, and two compilers writing the same files at once could leave a half-written module behind.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { builtAfterSources } from './buildFreshness.mjs';

// CHORUS_BUILD_ROOT: another project laid out the same way (the build's own tests use a scratch one).
const ROOT = process.env.CHORUS_BUILD_ROOT ?? fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
/** Touched with the build's start time after each successful build: sources newer than it are not in dist/. */
const STAMP = join(DIST, '.built');
const LOCK = join(DIST, '.build-lock');
/** A build on a loaded 2-core machine takes well under a minute; past this the lock holder is presumed stuck. */
const LOCK_WAIT_MS = 300_000;
const LOCK_POLL_MS = 200;

const say = (line) => process.stderr.write(`build: ${line}\n`);

function isStale() {
  return !existsSync(join(DIST, 'src', 'main.js')) || !builtAfterSources(ROOT, STAMP);
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** The pid in the lock; 0 while the holder is between its mkdir and its write, or just released it. */
function lockHolder() {
  try {
    return Number(readFileSync(join(LOCK, 'pid'), 'utf8').trim() || 0);
  } catch {
    return 0;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Takes the lock (mkdir is atomic); waits while another live process holds it, breaks it when its holder died. */
async function lock() {
  mkdirSync(DIST, { recursive: true });
  const deadline = Date.now() + LOCK_WAIT_MS;
  let told = false;
  for (;;) {
    try {
      mkdirSync(LOCK);
      writeFileSync(join(LOCK, 'pid'), String(process.pid));
      return;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    const holder = lockHolder();
    if (holder > 0 && holder !== process.pid && !alive(holder)) {
      say(`removing the lock of build process ${holder}, which is gone`);
      rmSync(LOCK, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`dist/ is locked by process ${holder} for over ${LOCK_WAIT_MS} ms`);
    if (!told) say(`waiting for build process ${holder || '?'} to finish`);
    told = true;
    await sleep(LOCK_POLL_MS);
  }
}

function compile() {
  let tsc;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    throw new Error(
      'dist/ is missing or older than the sources, and TypeScript is not installed to compile it: install with dev ' +
        'dependencies (npm ci) and run `npm run build`, or start from an image built with it',
    );
  }
  const startedMs = Date.now();
  say('compiling to dist/ (tsconfig.build.json)');
  const result = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`tsc failed (${result.status ?? result.signal}); dist/ is not marked built`);
  // The stamp carries the start time: a source saved while tsc ran stays newer than it, so the next run rebuilds.
  closeSync(openSync(STAMP, 'w'));
  utimesSync(STAMP, startedMs / 1000, startedMs / 1000);
  say(`compiled in ${((Date.now() - startedMs) / 1000).toFixed(1)} s`);
}

const ifStale = process.argv.includes('--if-stale');
try {
  if (!ifStale || isStale()) {
    await lock();
    try {
      // Another process may have finished the same build while this one waited for the lock.
      if (!ifStale || isStale()) compile();
    } finally {
      rmSync(LOCK, { recursive: true, force: true });
    }
  }
} catch (error) {
  say(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
