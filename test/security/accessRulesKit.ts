import assert from 'node:assert/strict';
import { createBot, type TestBot } from '../integration/gateway/gatewayFixtures.js';
import { createGuild, member, type TestGuild } from '../integration/guilds/guildKit.js';
import { api, registerUser, type TestUser } from '../support/testServer.js';
import { send } from './securityKit.js';

export { createBot, type TestBot };

/** A guild whose @everyone role holds `everyone` (0n: nothing at all), with one plain member. */
export interface LockedGuild {
  readonly target: TestGuild;
  readonly guildId: string;
  readonly channelId: string;
  readonly owner: TestUser;
  readonly plain: TestUser;
}

/** Sets the @everyone role's permissions (as the owner). */
export async function setEveryone(base: string, target: TestGuild, permissions: bigint): Promise<void> {
  await api(base, 'PATCH', `/guilds/${target.guild.id}/roles/${target.guild.id}`, {
    token: target.owner.token,
    body: { permissions: permissions.toString() },
  });
}

/** Creates a guild, lets a plain member join, then sets what @everyone may do. */
export async function lockedGuild(base: string, everyone: bigint, name = 'Locked'): Promise<LockedGuild> {
  const target = await createGuild(base, await registerUser(base, 'owner'), name);
  const plain = await member(base, target, 'plain');
  await setEveryone(base, target, everyone);
  return { target, guildId: target.guild.id, channelId: target.textChannelId, owner: target.owner, plain };
}

/** Calls the API as `token` and asserts the status and Discord code; returns the error body. */
export async function refused(
  base: string,
  method: string,
  path: string,
  token: string | undefined,
  status: number,
  code: number,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const answer = await send(base, method, path, {
    ...(token === undefined ? {} : { auth: token }),
    ...(body === undefined ? {} : { body }),
  });
  assert.equal(answer.status, status, `${method} ${path}: ${answer.text}`);
  assert.equal(answer.json['code'], code, `${method} ${path}: ${answer.text}`);
  return answer.json;
}

/** Calls the API as `token`; returns the status and parsed body, whatever they are. */
export async function attempt(
  base: string,
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; code: unknown; text: string }> {
  const answer = await send(base, method, path, { auth: token, ...(body === undefined ? {} : { body }) });
  return { status: answer.status, code: answer.json['code'], text: answer.text };
}
