import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** How long the program may take from start to its "done" line before it is killed. */
const RUN_LIMIT_MS = 60_000;

/** One line a program printed: `{ step, ok, error?, ...what the step produced }`. */
export interface StepLine {
  readonly step: string;
  readonly ok?: boolean;
  readonly error?: string;
  readonly [field: string]: unknown;
}

/** What one run of a program printed, by step name. */
export interface StepsRun {
  readonly steps: ReadonlyMap<string, StepLine>;
  readonly exitCode: number | null;
  /** The end of its standard error (the library's own log), for failure messages. */
  readonly stderrTail: string;
}

/** Waits for a child process to end; resolves with its exit code. */
function exited(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
}

/**
 * Compiles the Maven project test/clients/`name` (a pom.xml and one program printing JSON step lines)
 * and resolves its classpath; a cold Maven cache downloads the library from Maven Central first.
 */
export async function buildJavaProgram(name: string): Promise<string> {
  const project = fileURLToPath(new URL(`./${name}`, import.meta.url));
  const args = ['-q', '-B', '-Dstyle.color=never', 'compile', 'dependency:build-classpath'];
  const child = spawn('mvn', [...args, '-Dmdep.outputFile=target/classpath.txt'], { cwd: project });
  const output: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const code = await exited(child);
  assert.equal(code, 0, `mvn ${args.join(' ')} failed:\n${output.join('')}`);
  const dependencies = readFileSync(`${project}/target/classpath.txt`, 'utf8').trim();
  return `${project}/target/classes:${dependencies}`;
}

/**
 * Runs `mainClass` with `env` until it exits, reading its lines as they come; `onStep[name]` runs
 * when the line of step `name` arrives (e.g. the person posts once the bot is ready).
 */
export async function runJavaSteps(
  classpath: string,
  mainClass: string,
  env: Record<string, string>,
  onStep: Record<string, () => Promise<void>> = {},
): Promise<StepsRun> {
  const child = spawn('java', ['-cp', classpath, mainClass], { env: { ...process.env, ...env } });
  const killer = setTimeout(() => child.kill('SIGKILL'), RUN_LIMIT_MS);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-6_000);
  });
  const steps = new Map<string, StepLine>();
  const reactions: Promise<void>[] = [];
  const lines = createInterface({ input: child.stdout });
  lines.on('line', (text) => {
    if (!text.startsWith('{')) return;
    const line = JSON.parse(text) as StepLine;
    steps.set(line.step, line);
    const react = onStep[line.step];
    if (react) reactions.push(react());
  });
  try {
    const exitCode = await exited(child);
    await Promise.all(reactions);
    return { steps, exitCode, stderrTail: stderr };
  } finally {
    clearTimeout(killer);
  }
}
