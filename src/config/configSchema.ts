import { Type } from '@sinclair/typebox';
import { BackendSchema } from './backendSchema.js';
import { Formats, NOT_NEGATIVE, POSITIVE, PORT_RANGE, integer, list, text } from './configLeaves.js';
import { InstanceSchema } from './instanceSchema.js';
import { MetricsSchema } from './metricsSchema.js';
import { OperatorSchema } from './operatorSchema.js';
import { TracingSchema } from './tracingSchema.js';
import { VoiceSchema } from './voiceSchema.js';

/**
 * Every setting Chorus reads, as one TypeBox schema: each leaf names its environment variable
 * (`env`), its type and bounds, its default and a description. loadConfig reads and checks the
 * variables by walking it, `Config` is its static type, and the README's table is generated from
 * it (npm run docs:config; test/unit/config/configDocs.test.ts keeps them equal).
 */

export const HttpSchema = Type.Object({
  host: text({ env: 'CHORUS_HOST', description: 'address to listen on' }, '0.0.0.0', { minLength: 1 }),
  port: integer({ env: 'PORT', description: 'HTTP and gateway port (0: an ephemeral port)' }, 3001, PORT_RANGE),
  publicUrl: text(
    {
      env: 'CHORUS_PUBLIC_URL',
      description: 'base URL clients use (the gateway URL is derived from it); unset: the Host asked',
      shownDefault: "the request's origin",
    },
    '',
    { format: Formats.publicUrl },
  ),
  maxBodyBytes: integer(
    { env: 'CHORUS_MAX_BODY_BYTES', description: 'largest request body (larger: 413, code 40005)' },
    1_048_576, // JSON bodies; Discord caps far below this
    { minimum: 1024 },
  ),
  maxUploadBytes: integer(
    {
      env: 'CHORUS_MAX_UPLOAD_BYTES',
      description: "largest total of one request's uploaded files (larger: 413, code 40005)",
    },
    26_214_400, // Discord's 25 MiB
    POSITIVE,
  ),
  globalRateLimitPerSecond: integer(
    { env: 'CHORUS_GLOBAL_RATE_LIMIT', description: 'requests per second per user (or IP)' },
    50, // Discord's global bot limit
    POSITIVE,
  ),
  messageRateLimit: integer(
    { env: 'CHORUS_MESSAGE_RATE_LIMIT', description: 'messages per user per channel per window' },
    5, // Discord: 5 messages per 5 s per channel
    POSITIVE,
  ),
  messageRateWindowMs: integer(
    { env: 'CHORUS_MESSAGE_RATE_WINDOW_MS', description: 'the window of `CHORUS_MESSAGE_RATE_LIMIT`' },
    5_000,
    POSITIVE,
  ),
  authCacheMs: integer(
    {
      env: 'CHORUS_AUTH_CACHE_MS',
      description: 'cluster: how long an edge trusts a caller authenticated on another node (0: ask every time)',
    },
    1_000, // a token revoked elsewhere works here for at most this long
    NOT_NEGATIVE,
  ),
  trustedProxies: list(
    {
      env: 'CHORUS_TRUSTED_PROXIES',
      description: 'proxies whose `X-Forwarded-For` is believed (IPs, CIDRs, `loopback`); SECURITY.md',
      shownDefault: 'none',
    },
    [],
    Type.String({ format: Formats.trustedProxy }),
  ),
  outboundAllowPrivate: list(
    {
      env: 'CHORUS_OUTBOUND_ALLOW_PRIVATE',
      description:
        'non-public addresses requests Chorus makes (interactions endpoints) may reach (IPs, CIDRs, `loopback`); SSRF guard',
      shownDefault: 'none: public addresses only',
    },
    [],
    Type.String({ format: Formats.trustedProxy }),
  ),
});

export const GatewaySchema = Type.Object({
  heartbeatIntervalMs: integer(
    { env: 'CHORUS_HEARTBEAT_INTERVAL_MS', description: 'gateway heartbeat interval sent in Hello' },
    41_250,
    POSITIVE,
  ),
  resumeWindowMs: integer(
    { env: 'CHORUS_RESUME_WINDOW_MS', description: 'how long a session waits for a Resume after its socket drops' },
    180_000, // Discord keeps sessions "a few minutes"
    NOT_NEGATIVE,
  ),
  resumeBufferSize: integer(
    { env: 'CHORUS_RESUME_BUFFER', description: 'dispatches a session keeps for replay' },
    2_000,
    NOT_NEGATIVE,
  ),
  maxConcurrency: integer(
    {
      env: 'CHORUS_MAX_CONCURRENCY',
      description: 'Identify buckets per bot (`shard_id % n`); `/gateway/bot` `max_concurrency`',
    },
    16,
    POSITIVE,
  ),
  identifyWindowMs: integer(
    {
      env: 'CHORUS_IDENTIFY_WINDOW_MS',
      description: 'one Identify per bucket per window (else op 9); 0 turns the check off',
    },
    5_000,
    NOT_NEGATIVE,
  ),
  sessionStartLimit: integer(
    {
      env: 'CHORUS_SESSION_START_LIMIT',
      description: 'session starts per bot per 24 h (else op 9); `session_start_limit.total`',
    },
    1_000, // Discord's daily default
    POSITIVE,
  ),
  identifyTimeoutMs: integer(
    {
      env: 'CHORUS_IDENTIFY_TIMEOUT_MS',
      description: 'a socket with no Identify or Resume this long after Hello is closed 4003',
    },
    20_000,
    POSITIVE,
  ),
});

const ActorsSchema = Type.Object({
  mailboxCapacity: integer(
    { env: 'CHORUS_MAILBOX_CAPACITY', description: 'messages an actor may have queued before it answers 503' },
    10_000,
    POSITIVE,
  ),
  idleTimeoutMs: integer(
    { env: 'CHORUS_IDLE_TIMEOUT_MS', description: 'idle actors are passivated after this' },
    300_000,
    POSITIVE,
  ),
  largeGuildMembers: integer(
    {
      env: 'CHORUS_LARGE_GUILD_MEMBERS',
      description: 'a larger guild sends messages and typing to users after op 14 / 37, presences to bots',
    },
    250, // Discord's large_threshold for user accounts
    POSITIVE,
  ),
});

const ClusterSchema = Type.Object({
  askDeadlineMs: integer(
    { env: 'CHORUS_ASK_DEADLINE_MS', description: 'deadline of an actor request' },
    5_000,
    POSITIVE,
  ),
  vnodesPerNode: integer(
    { env: 'CHORUS_VNODES', description: 'virtual nodes per member on the hash ring' },
    128,
    POSITIVE,
  ),
  drainTimeoutMs: integer(
    {
      env: 'CHORUS_DRAIN_TIMEOUT_MS',
      description: 'a node stopped gracefully (SIGTERM, POST /stop) hands over for at most this long, then closes',
    },
    10_000,
    NOT_NEGATIVE,
  ),
});

export const ConfigSchema = Type.Object({
  logLevel: Type.Union([Type.Literal('info'), Type.Literal('warn'), Type.Literal('error'), Type.Literal('silent')], {
    env: 'CHORUS_LOG_LEVEL',
    description: 'lowest level logged (JSON lines on stderr)',
    default: 'info',
  }),
  tokenSecret: text(
    {
      env: 'CHORUS_TOKEN_SECRET',
      description: 'HMAC key for tokens; when unset, generated once (data dir; cluster: Cassandra)',
      shownDefault: 'generated',
    },
    '',
  ),
  operatorEmails: list(
    {
      env: 'CHORUS_OPERATOR_EMAILS',
      description: 'emails whose registration gets the OPERATOR right (may POST /stop, holds every right)',
      shownDefault: 'none',
    },
    [],
    Type.String({ minLength: 1 }),
  ),
  passwordCost: integer(
    { env: 'CHORUS_PASSWORD_COST', description: 'scrypt N for password hashes' },
    16_384, // 2^14 is the interactive-login norm
    { minimum: 1024 },
  ),
  instance: InstanceSchema,
  http: HttpSchema,
  gateway: GatewaySchema,
  voice: VoiceSchema,
  metrics: MetricsSchema,
  operator: OperatorSchema,
  tracing: TracingSchema,
  actors: ActorsSchema,
  cluster: ClusterSchema,
  backend: BackendSchema,
});
