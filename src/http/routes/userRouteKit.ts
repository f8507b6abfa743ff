import { ActorKind } from '../../../cluster/ActorSystem.js';
import type { Caller } from '../../../proto/gen/chorus/v1/common.js';
import type { UserCommand, UserReply } from '../../../proto/gen/chorus/v1/user.js';
import { ForbiddenError } from '../../domain/errors.js';
import type { EdgeContext, EdgeDeps } from '../EdgeDeps.js';
import { requireCaller, sendReply } from '../routeKit.js';

/** One User actor command, built from the authenticated caller. */
export type UserCommandFor = (caller: Caller) => NonNullable<UserCommand['command']>;

/** Asks the User actor `userId`. */
export function askUser(
  deps: EdgeDeps,
  userId: string,
  command: NonNullable<UserCommand['command']>,
): Promise<UserReply> {
  return deps.system.ask(ActorKind.User, userId, { command });
}

/** The JSON document of a reply (for the few routes that read what an actor answered). */
export function replyJson(reply: UserReply): Record<string, unknown> | undefined {
  if (reply.reply?.$case !== 'json') return undefined;
  const parsed: unknown = JSON.parse(reply.reply.json.json);
  return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
}

/** The `id` of a nested object in a reply document (`owner`, `bot`), or undefined. */
export function nestedId(document: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = document?.[key];
  const id = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : undefined;
}

/**
 * A route handler that asks the caller's own User actor and writes its reply (JSON with `status`,
 * or 204 when the actor answers empty).
 */
export function selfRoute(
  deps: EdgeDeps,
  build: (ctx: EdgeContext, caller: Caller) => NonNullable<UserCommand['command']>,
  status = 200,
) {
  return async (ctx: EdgeContext): Promise<void> => {
    const caller = await requireCaller(ctx, deps);
    sendReply(ctx, await askUser(deps, caller.userId, build(ctx, caller)), status);
  };
}

/** True for `?flag=true` / `1` (Discord's boolean query strings). */
export function boolQuery(ctx: EdgeContext, name: string): boolean {
  const raw = ctx.query[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value === 'true' || value === 'True' || value === '1';
}

/** Refuses a bot account on a route Discord keeps for people (403 20001). */
export function refuseBots(caller: Caller): void {
  if (caller.bot) throw new ForbiddenError('Bots cannot use this endpoint', 20_001);
}

/**
 * A route Discord keeps for people (relationships, notes, settings, accepting invites, ...): a bot
 * gets 403 20001 once authenticated, before its body or parameters are looked at.
 */
export function notForBots(deps: EdgeDeps, handler: (ctx: EdgeContext) => Promise<void>) {
  return async (ctx: EdgeContext): Promise<void> => {
    refuseBots(await requireCaller(ctx, deps));
    await handler(ctx);
  };
}

/** A selfRoute Discord keeps for people (relationships, notes, settings): bots get 403 20001 first. */
export function peopleRoute(
  deps: EdgeDeps,
  build: (ctx: EdgeContext, caller: Caller) => NonNullable<UserCommand['command']>,
  status = 200,
) {
  return notForBots(deps, selfRoute(deps, build, status));
}
