// Test-process side of the discord.js voice bots: starts djsVoiceBots.ts in a child trusting the node's voice
// certificate, serves its requests to close voice sockets server side, and returns its JSON line.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BotsArgs } from './djsVoiceBots.js';

const BOTS = fileURLToPath(new URL('./djsVoiceBots.ts', import.meta.url));
const NO_AES_GCM = fileURLToPath(new URL('./djsNoAesGcm.ts', import.meta.url));

/** What the test process does when the bots ask for a user's voice sockets to be closed with a code. */
export type CloseVoiceOf = (userId: string, code: number) => void;

/** Runs one scenario of the bots' child process; resolves with its JSON line once it exits 0. */
export async function runBots<T>(cert: string, args: BotsArgs, closeVoiceOf?: CloseVoiceOf): Promise<T> {
  const certFile = join(mkdtempSync(join(tmpdir(), 'chorus-voice-')), 'voice-cert.pem');
  writeFileSync(certFile, cert);
  const preload = args.xchachaOnly === true ? ['--import', NO_AES_GCM] : [];
  const child = spawn(process.execPath, ['--import', 'tsx', ...preload, BOTS, JSON.stringify(args)], {
    env: { ...process.env, NODE_EXTRA_CA_CERTS: certFile },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const { stdout, stderr } = child;
  assert.ok(stdout && stderr, 'piped output');
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  child.on('message', (message: { closeVoiceOf: string; code: number }) => {
    closeVoiceOf?.(message.closeVoiceOf, message.code);
    child.send({ closed: true });
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (process.env['CHORUS_DJS_DEBUG']) process.stderr.write(err);
  assert.equal(code, 0, `bots exited ${code}: ${err}`);
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as T;
}
