// `npm run bench:compare -- before.json after.json`: every figure of two `npm run bench` runs side by side, the
// change in %, and each run's ratio to its own bare baseline (see compareRuns.ts).
import { readFileSync } from 'node:fs';
import { compareRuns, compareTable } from './compareRuns.js';

const files = process.argv.slice(2).filter((arg) => arg !== '--compare');

function read(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch (error) {
    throw new Error(`${file}: not a bench results file (${error instanceof Error ? error.message : String(error)})`, {
      cause: error,
    });
  }
}

const [beforeFile, afterFile] = files;
if (files.length !== 2 || beforeFile === undefined || afterFile === undefined) {
  process.stderr.write(
    'usage: npm run bench:compare -- BEFORE.json AFTER.json (as written by npm run bench -- --out)\n',
  );
  process.exitCode = 2;
} else {
  try {
    process.stdout.write(`before: ${beforeFile}\nafter:  ${afterFile}\n\n`);
    process.stdout.write(`${compareTable(compareRuns(read(beforeFile), read(afterFile)))}\n`);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
