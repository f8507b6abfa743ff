import type { RouterContext } from '@koa/router';
import type { ActorSystem } from '../../cluster/ActorSystem.js';
import type { Caller } from '../../proto/gen/chorus/v1/common.js';
import type { BlobStore } from '../domain/BlobStore.js';
import type { HttpOptions, GatewayOptions, InstanceOptions } from '../config/Config.js';
import type { InstanceCounter } from '../domain/InstanceCounter.js';
import type { Logger } from '../domain/Logger.js';
import type { SnowflakeGenerator } from '../domain/snowflake.js';
import type { CallerCache } from './CallerCache.js';
import type { MetricsEndpoint } from './httpMetrics.js';
import type { RateLimiter } from './RateLimiter.js';

/** Stateless account operations that precede any user actor: registration and login. */
export interface AccountDirectory {
  /** Creates an account from a validated RegisterSchema body (JSON); resolves to the `{token}` JSON. */
  register(userId: string, body: string): Promise<string>;
  /** Checks a LoginSchema body (JSON); resolves to the `{token, user_id, user_settings}` JSON; 400 50035 when wrong. */
  login(body: string): Promise<string>;
  /** Second login step for TOTP accounts: a TotpSchema body (JSON) → the same JSON as `login`; 400 when wrong. */
  loginTotp(body: string): Promise<string>;
}

/** Finds which guild an invite code belongs to (invites are owned by their Guild actor). */
export interface InviteDirectory {
  resolveInvite(code: string): Promise<string | undefined>;
}

/** Finds the channel that owns a webhook (webhooks are owned by their Channel actor). */
export interface WebhookDirectory {
  /** The webhook's channel id, or undefined for an unknown webhook; a wrong `token`, when given, is 401 50027. */
  channelOf(webhookId: string, token?: string): Promise<string | undefined>;
  /** The channels of a guild that have webhooks. */
  channelsOfGuild(guildId: string): Promise<string[]>;
}

/** The commands of the bots a DM is with (applications and commands are records no actor holds in memory). */
export interface DmCommandDirectory {
  /** Discord's application command index of those bots (their public user records) in a DM with them. */
  forBots(bots: readonly Record<string, unknown>[]): Promise<unknown>;
}

/** A node's view of its own health, for `GET /health`. */
export interface HealthReport {
  readonly status: 'ok' | 'degraded';
  readonly mode: 'embedded' | 'cluster';
  readonly nodeId: string;
  /** Each dependency: 'ok' or what is wrong with it. */
  readonly checks: Readonly<Record<string, string>>;
  readonly members?: readonly string[];
  readonly ringVersion?: number;
}

/** What route modules get: the router to actors, options, and edge services. */
export interface EdgeDeps {
  readonly system: ActorSystem;
  readonly http: HttpOptions;
  /** CHORUS_ADMIN_TOKEN: the operator routes accept it as a Bearer token; '' or absent: OPERATOR users only. */
  readonly adminToken?: string;
  readonly gateway: GatewayOptions;
  /** GET /policies/instance/'s name and pages; the defaults (name Chorus, nothing else) when absent. */
  readonly instance?: InstanceOptions;
  /** ws:// URL of the gateway, as GET /gateway returns it. */
  readonly gatewayUrl: string;
  /** http(s):// base URL clients reach this node at (attachment URLs are built on it). */
  readonly publicUrl: string;
  /** Attachment bytes (files under the data dir, or Cassandra chunks every node shares). */
  readonly blobs: BlobStore;
  readonly limiter: RateLimiter;
  /** Verifies token signatures at the edge, so a forged token costs no actor activation. */
  readonly tokenSecret: string;
  /** Callers authenticated by User actors on other nodes, for a short while (see CallerCache). */
  readonly callers: CallerCache;
  /** Assigns ids for entities the edge creates an actor for (a new user, a new guild). */
  readonly ids: SnowflakeGenerator;
  readonly accounts: AccountDirectory;
  readonly invites: InviteDirectory;
  readonly webhooks: WebhookDirectory;
  readonly dmCommands: DmCommandDirectory;
  readonly health: () => Promise<HealthReport>;
  /** Instance counts for GET /policies/stats/; undefined where the backend keeps none (its counts are null). */
  readonly counts?: InstanceCounter;
  /** GET /metrics and request metrics; undefined when CHORUS_METRICS=off (then /metrics is 404). */
  readonly metrics?: MetricsEndpoint;
  readonly log: Logger;
  /** Asks the operator's process to stop (POST /stop). */
  readonly requestStop: () => void;
}

/** Per-request state: the caller, resolved on first use from the Authorization header. */
export interface EdgeState {
  caller?: Promise<Caller>;
}

/** The Koa context every route handler receives. */
export type EdgeContext = RouterContext<EdgeState>;
