import type { Middleware } from 'koa';
import { RateLimitedError } from '../domain/errors.js';
import { ticketSecret, verifyToken } from '../domain/tokens.js';
import type { EdgeContext, EdgeDeps, EdgeState } from './EdgeDeps.js';
import type { RateLimitHit, RateLimiter, RateLimitWindow } from './RateLimiter.js';
import { requireCaller } from './routeKit.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Attempts per account, counted before the credential is checked, so parallel guesses cannot slip past. */
const PER_ACCOUNT = [
  { limit: 5, windowMs: MINUTE_MS },
  { limit: 50, windowMs: DAY_MS },
] as const;
/** Attempts per client address across all accounts: roomier, since many people may share one address. */
const PER_ADDRESS = [
  { limit: 20, windowMs: MINUTE_MS },
  { limit: 100, windowMs: HOUR_MS },
] as const;
/** Failures an account may have in a row before each further one locks it for a while. */
const FREE_FAILURES = 4;
/** The first lock; each further failure doubles it, up to LONGEST_LOCK_MS. */
const FIRST_LOCK_MS = MINUTE_MS;
const LONGEST_LOCK_MS = HOUR_MS;
/** Large enough never to refuse: the failure window only counts. */
const UNCAPPED = 1_000_000_000;

/** How long an account is locked after its `failures`-th failure in a row (0: not locked). */
export function lockAfter(failures: number): number {
  if (failures <= FREE_FAILURES) return 0;
  return Math.min(LONGEST_LOCK_MS, FIRST_LOCK_MS * 2 ** Math.min(20, failures - FREE_FAILURES - 1));
}

type Body = Record<string, unknown> | undefined;

/** A route that checks a credential, and how to name the account an attempt counts against. */
interface CredentialRoute {
  readonly method: string;
  readonly path: RegExp;
  readonly account: (ctx: EdgeContext, deps: EdgeDeps, body: Body) => Promise<string | undefined>;
}

/**
 * Routes that check a password, a TOTP code or a backup code, and the account each attempt is
 * counted against (undefined: the request checks no credential, e.g. PATCH /users/@me without one).
 */
const CREDENTIAL_ROUTES: readonly CredentialRoute[] = [
  { method: 'POST', path: /^\/api\/auth\/login$/, account: loginAccount },
  { method: 'POST', path: /^\/api\/auth\/mfa\/totp$/, account: ticketAccount },
  {
    method: 'PATCH',
    path: /^\/api\/users\/@me$/,
    account: async (ctx, deps, body) => (body?.['password'] === undefined ? undefined : callerAccount(ctx, deps)),
  },
  {
    method: 'POST',
    path: /^\/api\/users\/@me\/(disable|delete|mfa\/totp\/enable|mfa\/totp\/disable|mfa\/codes)$/,
    account: callerAccount,
  },
];

function loginAccount(_ctx: EdgeContext, _deps: EdgeDeps, body: Body): Promise<string | undefined> {
  const login = body?.['login'];
  return Promise.resolve(typeof login === 'string' ? `login:${login.trim().toLowerCase().slice(0, 320)}` : undefined);
}

/** The account a login ticket was issued for; a forged ticket names nobody (and fails anyway). */
function ticketAccount(_ctx: EdgeContext, deps: EdgeDeps, body: Body): Promise<string | undefined> {
  const ticket = body?.['ticket'];
  const claims = typeof ticket === 'string' ? verifyToken(ticketSecret(deps.tokenSecret), ticket) : undefined;
  return Promise.resolve(claims ? `user:${claims.userId}` : undefined);
}

async function callerAccount(ctx: EdgeContext, deps: EdgeDeps): Promise<string> {
  return `user:${(await requireCaller(ctx, deps)).userId}`;
}

const windowsOf = (key: string, tiers: readonly { limit: number; windowMs: number }[]): RateLimitWindow[] =>
  tiers.map(({ limit, windowMs }) => ({ key: `auth:${key}:${windowMs}`, limit, windowMs }));

function refusal(hits: readonly RateLimitHit[]): RateLimitedError | undefined {
  const refused = hits.filter((hit) => !hit.allowed);
  if (refused.length === 0) return undefined;
  const waitMs = Math.max(...refused.map((hit) => hit.resetAfterMs));
  return new RateLimitedError(waitMs, false, 'auth', Math.min(...refused.map((hit) => hit.limit)));
}

/**
 * Limits guessing of passwords and codes, as Discord does, with a 429 and retry_after:
 * - every attempt counts against its account and its client address before the credential is checked;
 * - from the fifth failure in a row the account is locked for a minute, doubling with each further
 *   failure up to an hour, so each run of guesses waits longer than the last;
 * - a success clears the account's attempts, failures and lock.
 */
export function credentialAttempts(deps: EdgeDeps): Middleware<EdgeState> {
  const { limiter } = deps;
  const counted = async (ctx: EdgeContext, next: () => Promise<unknown>, route: CredentialRoute): Promise<void> => {
    const body = (ctx.request as { body?: unknown }).body;
    const fields = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Body) : undefined;
    const account = await route.account(ctx, deps, fields);
    if (account === undefined) {
      await next();
      return;
    }
    const attempts = windowsOf(account, PER_ACCOUNT);
    const lock = { key: `auth:${account}:lock`, limit: 1, windowMs: FIRST_LOCK_MS };
    const failures = { key: `auth:${account}:failures`, limit: UNCAPPED, windowMs: DAY_MS };
    const tooMany = refusal(await limiter.hit([...attempts, ...windowsOf(`ip:${ctx.ip}`, PER_ADDRESS)]));
    const locked = tooMany ?? refusal(await limiter.peek([lock]));
    if (locked) throw locked;
    let succeeded = false;
    try {
      await next();
      succeeded = ctx.status < 400;
    } finally {
      if (succeeded) await limiter.reset([...attempts.map((window) => window.key), lock.key, failures.key]);
      else await lockIfDue(limiter, lock, failures);
    }
  };
  // Every other request passes straight on: next()'s promise returned, no async layer of its own.
  return (ctx, next) => {
    const route = credentialRoute(ctx.method, ctx.path);
    return route === undefined ? next() : counted(ctx as EdgeContext, next, route);
  };
}

/** The credential route a request is, if any. */
function credentialRoute(method: string, path: string): CredentialRoute | undefined {
  for (const route of CREDENTIAL_ROUTES) if (route.method === method && route.path.test(path)) return route;
  return undefined;
}

/** Counts one more failure in a row and locks the account when that is due. */
async function lockIfDue(limiter: RateLimiter, lock: RateLimitWindow, failures: RateLimitWindow): Promise<void> {
  const [counted] = await limiter.hit([failures]);
  const lockMs = lockAfter(counted ? counted.limit - counted.remaining : 0);
  if (lockMs > 0) await limiter.hit([{ ...lock, windowMs: lockMs }]);
}
