import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const LAUNCHER = join(import.meta.dirname, '..', '..', 'bin', 'chorus.mjs');

/** What one `chorus` run printed and its exit status. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `chorus` as an operator would (bin/chorus.mjs in a child process, from a directory outside the checkout)
 * with these CHORUS_* settings.
 */
export function chorus(args: readonly string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [LAUNCHER, ...args],
      { env: { ...process.env, ...env }, cwd: tmpdir() },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}
