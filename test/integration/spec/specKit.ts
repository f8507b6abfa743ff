import assert from 'node:assert/strict';
import { solidPng } from '../../../src/http/solidPng.js';
import { api, registerUser, type TestUser } from '../../support/testServer.js';
import { createGuild, member, type GuildHarness, type TestGuild } from '../guilds/guildKit.js';

export { api, registerUser, type TestUser };
export {
  connect,
  createGuild,
  fails,
  grant,
  guildReady,
  member,
  startHarness,
  type GuildHarness,
} from '../guilds/guildKit.js';
export type { ApiError, TestGuild } from '../guilds/guildKit.js';

/** GUILDS | GUILD_MEMBERS | GUILD_EXPRESSIONS: what the expression tests' sessions ask for. */
export const EXPRESSION_INTENTS = 1 | 2 | 8;

/** A small real PNG. */
export function pngBytes(width = 4, height = 4): Buffer {
  return solidPng(width, height, { r: 10, g: 20, b: 30 });
}

/** A PNG as the data URI emoji bodies carry. */
export function pngDataUri(): string {
  return `data:image/png;base64,${pngBytes().toString('base64')}`;
}

/** A one-frame GIF89a (1×1, transparent): the smallest valid GIF. */
export function gifBytes(): Buffer {
  return Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
}

/** A raw call: the Response, for status and headers (JSON body or multipart form). */
export function raw(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; form?: FormData } = {},
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers['authorization'] = options.token;
  let body: string | FormData | undefined;
  if (options.form) body = options.form;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  return fetch(`${base}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
}

/** A multipart form as discord.js sends a sticker: the `file` part and the text fields. */
export function stickerForm(
  fields: Record<string, string>,
  file?: { data: Buffer; name: string; type: string },
): FormData {
  const form = new FormData();
  if (file) form.append('file', new Blob([file.data], { type: file.type }), file.name);
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  return form;
}

/** Sends a form and checks the status; resolves with the parsed JSON body. */
export async function sendForm<T = Record<string, unknown>>(
  base: string,
  path: string,
  token: string,
  form: FormData,
  status: number,
): Promise<T> {
  const response = await raw(base, 'POST', path, { token, form });
  const text = await response.text();
  assert.equal(response.status, status, `POST ${path}: ${text}`);
  return JSON.parse(text) as T;
}

/** The field names a 50035 error body names at its top level. */
export function errorFields(error: { errors?: Record<string, unknown> }): string[] {
  return Object.keys(error.errors ?? {});
}

/** A guild with its owner and one plain member. */
export async function guildWithMember(
  h: GuildHarness,
  name = 'Spec Guild',
): Promise<{ target: TestGuild; user: TestUser }> {
  const target = await createGuild(h.api, await registerUser(h.api, 'owner'), name);
  return { target, user: await member(h.api, target, 'member') };
}
