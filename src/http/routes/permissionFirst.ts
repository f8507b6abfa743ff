import { ActorKind } from '../../../cluster/ActorSystem.js';
import type { Caller } from '../../../proto/gen/chorus/v1/common.js';
import { AppError, MissingPermissionsError } from '../../domain/errors.js';
import type { EdgeContext, EdgeDeps } from '../EdgeDeps.js';
import { requireCaller, snowflakeParam } from '../routeKit.js';

/** A route handler. */
export type RouteHandler = (ctx: EdgeContext) => Promise<void>;

/** Asks whoever owns a route's resource whether the caller could act there at all; throws 401/403/404 if not. */
export type AccessProbe = (ctx: EdgeContext) => Promise<void>;

/**
 * The least a caller must hold for a route to possibly succeed: any one of these permission bits
 * (0n: being a member, or seeing the channel, is enough; NO_PERMISSION_SUFFICES: nothing is). A
 * function when it depends on the route's target (your own nickname or another member's).
 */
export type Needs = bigint | ((ctx: EdgeContext, caller: Caller) => bigint);

/** No permission lets the caller do this (another member's guild profile): refused once membership is known. */
export const NO_PERMISSION_SUFFICES = -1n;

/**
 * Discord answers a caller who may not use a route with 403 (or 404 where it hides the resource)
 * before it looks at the body. Chorus validates bodies at the edge and checks permissions in the
 * owning actor, in the same turn as the change, so this wraps a handler: when it is about to answer
 * 400 (a bad body, query or path value), `probe` asks the owner whether the caller could act at all,
 * and its refusal wins. Valid requests (the hot path) pay nothing extra; a refused one pays one ask.
 */
export function permissionFirst(probe: AccessProbe, handler: RouteHandler): RouteHandler {
  return async (ctx) => {
    try {
      await handler(ctx);
    } catch (error) {
      if (!(error instanceof AppError) || error.kind !== 'invalid') throw error;
      await probe(ctx);
      throw error;
    }
  };
}

function neededBits(ctx: EdgeContext, caller: Caller, needs: Needs): bigint {
  return typeof needs === 'function' ? needs(ctx, caller) : needs;
}

/** The probe of a `/guilds/{guild_id}/...` route: a member holding one of `needs` (404 10004 / 403 50013). */
export function guildProbe(deps: EdgeDeps, needs: Needs): AccessProbe {
  return async (ctx) => {
    const caller = await requireCaller(ctx, deps);
    const bits = neededBits(ctx, caller, needs);
    await deps.system.ask(ActorKind.Guild, snowflakeParam(ctx, 'guild_id'), {
      command: {
        $case: 'checkPermission',
        checkPermission: { caller, permissions: (bits < 0n ? 0n : bits).toString(), channelId: '', any: true },
      },
    });
    if (bits < 0n) throw new MissingPermissionsError();
  };
}

/**
 * The probe of a `/channels/{channel_id}/...` route, asked of the Channel actor (its cached
 * permission snapshot, or a DM's recipient list): a caller who sees the channel and holds one of
 * `needs` (404 10003 / 403 50001 / 403 50013).
 */
export function channelProbe(deps: EdgeDeps, needs: Needs): AccessProbe {
  return async (ctx) => {
    const caller = await requireCaller(ctx, deps);
    const bits = neededBits(ctx, caller, needs);
    await deps.system.ask(ActorKind.Channel, snowflakeParam(ctx, 'channel_id'), {
      command: { $case: 'checkPermission', checkPermission: { caller, anyOf: (bits < 0n ? 0n : bits).toString() } },
    });
    if (bits < 0n) throw new MissingPermissionsError();
  };
}
