import { ActorKind } from '../../cluster/ActorSystem.js';
import type { Caller, Json } from '../../proto/gen/chorus/v1/common.js';
import { UnauthorizedError, ValidationError } from '../domain/errors.js';
import { hasRight, type Right } from '../domain/rights.js';
import { MissingPermissionsError } from '../domain/errors.js';
import { isSnowflake } from '../domain/snowflake.js';
import { tokenFromHeader, verifyToken } from '../domain/tokens.js';
import type { SchemaBody, SchemaName } from '../contract/index.js';
import { validate } from '../contract/validate.js';
import type { EdgeContext, EdgeDeps } from './EdgeDeps.js';

/** The authenticated caller; 401 when the Authorization header is missing or its token is not valid. */
export function requireCaller(ctx: EdgeContext, deps: EdgeDeps): Promise<Caller> {
  ctx.state.caller ??= authenticate(ctx.get('authorization'), deps);
  return ctx.state.caller;
}

async function authenticate(header: string, deps: EdgeDeps): Promise<Caller> {
  const token = tokenFromHeader(header);
  // The signature is checked here: a forged or mangled token never reaches (or activates) an actor.
  const userId = token === undefined ? undefined : verifyToken(deps.tokenSecret, token)?.userId;
  if (token === undefined || userId === undefined) throw new UnauthorizedError();
  const remote = deps.system.ownerOf(ActorKind.User, userId) !== deps.system.nodeId;
  const cached = remote ? deps.callers.get(token) : undefined;
  if (cached) return cached;
  try {
    const reply = await deps.system.ask(ActorKind.User, userId, {
      command: { $case: 'authenticate', authenticate: { token } },
    });
    if (reply.reply?.$case !== 'authenticated' || !reply.reply.authenticated.caller) throw new UnauthorizedError();
    const caller = reply.reply.authenticated.caller;
    if (remote) deps.callers.put(token, caller);
    return caller;
  } catch (error) {
    if (error instanceof ValidationError) throw new UnauthorizedError();
    throw error;
  }
}

/** Requires an instance right (OPERATOR implies all); 403 50013 otherwise. */
export function requireRight(caller: Caller, right: (typeof Right)[keyof typeof Right], name: string): void {
  if (!hasRight(BigInt(caller.rights || '0'), right)) throw new MissingPermissionsError(name);
}

/** The request body validated against a spec schema, typed by the schema's body type. */
export function validBody<N extends SchemaName>(ctx: EdgeContext, schema: N): SchemaBody<N> {
  return validate(schema, (ctx.request as { body?: unknown }).body ?? {});
}

/** The validated body re-serialized for an actor command (the actor parses it back). */
export function bodyFor(ctx: EdgeContext, schema: SchemaName): string {
  return JSON.stringify(validBody(ctx, schema));
}

/** A path parameter that must be a snowflake; 400 50035 naming it otherwise (as Discord does). */
export function snowflakeParam(ctx: EdgeContext, name: string): string {
  const value = ctx.params[name];
  if (isSnowflake(value)) return value;
  throw ValidationError.field(name, 'NUMBER_TYPE_COERCE', `Value "${value ?? ''}" is not snowflake.`);
}

/** An integer query parameter within [min, max], or the fallback when absent. */
export function intQuery(ctx: EdgeContext, name: string, fallback: number, min: number, max: number): number {
  const raw = ctx.query[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(Array.isArray(raw) ? raw[0] : raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw ValidationError.field(name, 'NUMBER_TYPE_MAX', `Must be an integer between ${min} and ${max}.`);
  }
  return value;
}

/** A snowflake query parameter, or '' when absent. */
export function snowflakeQuery(ctx: EdgeContext, name: string): string {
  const raw = ctx.query[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value === '') return '';
  if (isSnowflake(value)) return value;
  throw ValidationError.field(name, 'NUMBER_TYPE_COERCE', `Value "${String(value)}" is not snowflake.`);
}

/** Writes a JSON document that an actor already serialized. */
export function sendJson(ctx: EdgeContext, json: string, status = 200): void {
  ctx.status = status;
  // The type exactly as Discord sends it (errorMiddleware would cut Koa's "; charset=utf-8" off again), set
  // directly: `ctx.type =` looks the type up in mime-types on every reply.
  ctx.set('Content-Type', 'application/json');
  ctx.body = json;
}

/** Writes an object as JSON. */
export function sendObject(ctx: EdgeContext, value: unknown, status = 200): void {
  sendJson(ctx, JSON.stringify(value), status);
}

/** An actor reply with a `json` or `empty` case: 200 with the document, or 204. */
export function sendReply(ctx: EdgeContext, reply: { reply?: { $case: string } | undefined }, status = 200): void {
  const outcome = reply.reply as { $case: string; json?: Json } | undefined;
  if (outcome?.$case === 'json' && outcome.json) sendJson(ctx, outcome.json.json, status);
  else ctx.status = 204;
}
