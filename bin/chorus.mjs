#!/usr/bin/env node
// `npx chorus <command>`: the operator CLI (src/cli). Runs the compiled CLI when dist/ holds a build at least
// as new as the sources (an image, or after `npm run build`); otherwise the TypeScript through tsx, so a
// checkout needs no build first. Plain JavaScript: it must run before anything is compiled.
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL, URL } from 'node:url';
import { builtAfterSources } from '../scripts/buildFreshness.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const COMPILED = join(ROOT, 'dist', 'src', 'cli', 'main.js');
/** Touched by scripts/build.mjs after each build, with the build's start time. */
const STAMP = join(ROOT, 'dist', '.built');

function compiledIsCurrent() {
  return statSync(COMPILED, { throwIfNoEntry: false }) !== undefined && builtAfterSources(ROOT, STAMP);
}

if (compiledIsCurrent()) {
  await import(pathToFileURL(COMPILED).href);
} else {
  const result = spawnSync(
    process.execPath,
    // tsx resolved from this checkout: `--import tsx` alone is looked up from the caller's directory.
    ['--import', import.meta.resolve('tsx'), join(ROOT, 'src', 'cli', 'main.ts'), ...process.argv.slice(2)],
    { stdio: 'inherit', cwd: process.cwd() },
  );
  process.exitCode = result.status ?? 1;
}
