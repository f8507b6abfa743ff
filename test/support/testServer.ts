import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/loadConfig.js';
import { startNode, type RunningNode } from '../../src/main.js';
import { startWithVoice } from './startWithVoice.js';

/** A node started for one test file, on an ephemeral port with its own SQLite file. */
export interface TestServer {
  readonly node: RunningNode;
  /** e.g. http://127.0.0.1:PORT/api/v10 */
  readonly api: string;
  readonly gatewayUrl: string;
  stop(): Promise<void>;
}

/** Starts a real node (SQLite in a temp dir); `overrides` are environment-style settings. */
export async function startTestServer(overrides: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'chorus-test-'));
  const config = loadConfig(
    {},
    {
      PORT: '0',
      CHORUS_HOST: '127.0.0.1',
      CHORUS_DATA_DIR: dataDir,
      CHORUS_LOG_LEVEL: 'silent',
      CHORUS_PASSWORD_COST: '1024',
      CHORUS_GLOBAL_RATE_LIMIT: '100000',
      CHORUS_MESSAGE_RATE_LIMIT: '100000',
      CHORUS_IDENTIFY_WINDOW_MS: '0', // tests identify one user many times a second; limits tests set it back
      ...overrides,
    },
  );
  const node = await startWithVoice(overrides, () => startNode(config));
  return {
    node,
    api: `${node.url}/api/v10`,
    gatewayUrl: node.gatewayUrl,
    stop: async () => {
      await node.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A registered account. */
export interface TestUser {
  readonly id: string;
  readonly token: string;
  readonly username: string;
}

let counter = 0;

/** Calls the API and parses JSON; throws with the body when the status is not the expected one. */
export async function api<T = unknown>(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; expect?: number } = {},
): Promise<T> {
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers.authorization = options.token;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  const expected = options.expect ?? (method === 'DELETE' || method === 'PUT' ? response.status : 200);
  if (response.status !== expected) {
    throw new Error(`${method} ${path} answered ${response.status}, expected ${expected}: ${text}`);
  }
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Registers a fresh user and returns its id and token. */
export async function registerUser(base: string, name = 'user'): Promise<TestUser> {
  counter += 1;
  const username = `${name}${counter}`;
  const { token } = await api<{ token: string }>(base, 'POST', '/auth/register', {
    body: {
      username,
      password: 'correct horse battery',
      email: `${username}.${Date.now()}@example.test`,
      consent: true,
    },
  });
  const me = await api<{ id: string }>(base, 'GET', '/users/@me', { token });
  return { id: me.id, token, username };
}
