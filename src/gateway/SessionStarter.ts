import { ActorKind, type ActorSystem } from '../../cluster/ActorSystem.js';
import type { GatewayOptions } from '../config/Config.js';
import { toAppError, UnauthorizedError } from '../domain/errors.js';
import type { Logger } from '../domain/Logger.js';
import { verifyToken } from '../domain/tokens.js';
import type { RateLimiter } from '../http/RateLimiter.js';
import type { IdentifyFields, Refusal } from './clientPayload.js';
import { CloseCode } from './gatewayProtocol.js';
import { IdentifyQueue } from './IdentifyQueue.js';
import { identifyWindow, sessionStartWindow } from './sessionStartLimits.js';

/** What starting a session needs from the gateway server. */
export interface SessionStarterDeps {
  readonly system: ActorSystem;
  readonly options: GatewayOptions;
  /** Shared by the nodes of a cluster (Redis): a bot's shards may identify on different nodes. */
  readonly limiter: RateLimiter;
  readonly log: Logger;
  /** Token signatures are checked here: a forged token never reaches (or activates) a User actor. */
  readonly tokenSecret: string;
}

/** One Identify the connection hands over: the session id it chose, its socket and the checked fields. */
export interface SessionStartRequest {
  readonly sessionId: string;
  readonly socketId: string;
  readonly version: number;
  /** The gateway URL at the origin the client connected to (READY.resume_gateway_url). */
  readonly gatewayUrl: string;
  readonly fields: IdentifyFields;
}

/** `started`: READY is on its way; `refused`: answer op 9 `d:false` (no session); otherwise close with the code. */
export type SessionStartOutcome = 'started' | 'refused' | Refusal;

/**
 * Identifies a node serves at once (each a User authentication, the Session's READY and its store
 * writes). A few keep the cores busy and cover the store's latency in cluster mode; more would only
 * make heartbeats of connected sessions wait behind READYs (IdentifyQueue).
 */
const IDENTIFIES_AT_ONCE = 8;

/** The gateway close code for an error from Identify: 4004 for a bad token, 4002 for a bad payload. */
function identifyCloseCode(error: unknown): number {
  const kind = toAppError(error).kind;
  if (kind === 'unauthenticated') return CloseCode.AuthenticationFailed;
  if (kind === 'invalid') return CloseCode.DecodeError;
  return CloseCode.UnknownError;
}

/**
 * Identify's way to a Session actor: the token is authenticated here first (by its User actor), so
 * only a real user's Identify counts against that user's limits and a forged token burns nobody's
 * budget; then the Identify concurrency bucket (gateway.md §9: `shard_id % max_concurrency`, one per
 * window) and the daily session-start budget are counted; then the Session actor, which checks the
 * token again (it serves Resume the same way), starts the session and sends READY.
 */
export class SessionStarter {
  readonly #queue = new IdentifyQueue(IDENTIFIES_AT_ONCE);

  constructor(private readonly deps: SessionStarterDeps) {}

  /**
   * `isOpen` is asked before anything is counted or created: a socket gone meanwhile starts nothing.
   * At most IDENTIFIES_AT_ONCE run at once on a node; the others wait their turn, in order.
   */
  start(request: SessionStartRequest, isOpen: () => boolean): Promise<SessionStartOutcome> {
    return this.#queue.run(() => this.#start(request, isOpen));
  }

  async #start(request: SessionStartRequest, isOpen: () => boolean): Promise<SessionStartOutcome> {
    const { system, log } = this.deps;
    if (!isOpen()) return 'refused'; // closed while it waited: nothing to start, no READY to build
    try {
      const caller = await this.#authenticate(request.fields.token);
      if (!isOpen() || (caller.bot && !(await this.#admit(caller.userId, request)))) return 'refused';
      // Checked again right before the ask: a close after it sends its detach behind this Identify.
      if (!isOpen()) return 'refused';
      const { token, intents, shardId, shardCount, propertiesJson, presenceJson, capabilities } = request.fields;
      const socket = { nodeId: system.nodeId, socketId: request.socketId };
      // One literal, no spread: keys added after a spread take V8's slow path (about 4 µs per Identify).
      const identify = {
        token,
        intents,
        shardId,
        shardCount,
        propertiesJson,
        presenceJson,
        capabilities,
        version: request.version,
        gatewayUrl: request.gatewayUrl,
        socket,
      };
      await system.ask(ActorKind.Session, request.sessionId, { command: { $case: 'identify', identify } });
      return 'started';
    } catch (error) {
      const closeCode = identifyCloseCode(error);
      if (closeCode === CloseCode.UnknownError) {
        log.warn('gateway_identify_failed', { socket: request.socketId, err: toAppError(error).message });
      }
      return { closeCode };
    }
  }

  async #authenticate(token: string): Promise<{ readonly userId: string; readonly bot: boolean }> {
    const userId = verifyToken(this.deps.tokenSecret, token)?.userId;
    if (userId === undefined) throw new UnauthorizedError('Authentication failed.');
    let reply;
    try {
      reply = await this.deps.system.ask(ActorKind.User, userId, {
        command: { $case: 'authenticate', authenticate: { token } },
      });
    } catch (error) {
      const kind = toAppError(error).kind;
      if (kind === 'invalid' || kind === 'not_found' || kind === 'forbidden') throw new UnauthorizedError();
      throw error;
    }
    if (reply.reply?.$case !== 'authenticated' || !reply.reply.authenticated.caller) throw new UnauthorizedError();
    const { caller } = reply.reply.authenticated;
    return { userId: caller.userId, bot: caller.bot };
  }

  /**
   * Counts a bot's Identify (Discord documents both limits for bots, in GET /gateway/bot; a person's
   * clients, such as several tabs or devices connecting at once, are not throttled): its concurrency bucket first (a refusal there creates no session, so it
   * does not touch the daily budget), then the budget. An Identify admitted here whose Session actor
   * then fails (rare: a store or node outage) has still used a start; a fixed window cannot take it back.
   */
  async #admit(userId: string, { fields, socketId }: SessionStartRequest): Promise<boolean> {
    const { limiter, options, log } = this.deps;
    const bucket = identifyWindow(userId, fields.shardId, options);
    if (bucket) {
      const [hit] = await limiter.hit([bucket]);
      if (hit && !hit.allowed) return false;
    }
    const [budget] = await limiter.hit([sessionStartWindow(userId, options)]);
    if (budget && !budget.allowed) {
      // Departure from Discord (gateway.md §7): a spent budget there terminates the bot's sessions and
      // resets its token. Resetting a token is destructive (every process holding it breaks until a
      // human intervenes), so Chorus only refuses the Identify (op 9 d:false) until the window resets.
      log.warn('gateway_session_start_limit', { user: userId, socket: socketId, resetAfterMs: budget.resetAfterMs });
      return false;
    }
    return true;
  }
}
