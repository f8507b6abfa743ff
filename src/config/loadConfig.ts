import { Ajv } from 'ajv';
import proxyaddr from 'proxy-addr';
import type { Config } from './Config.js';

/** Environment variable → config path, type and default (one line of why each). */
const OPTIONS = [
  ['CHORUS_LOG_LEVEL', 'logLevel', 'string', 'info'],
  ['CHORUS_TOKEN_SECRET', 'tokenSecret', 'string', ''], // empty: generated once and kept in the data dir
  ['CHORUS_OPERATOR_EMAILS', 'operatorEmails', 'list', ''], // who may POST /stop and holds every right
  ['CHORUS_PASSWORD_COST', 'passwordCost', 'integer', 16_384], // scrypt N; 2^14 is the interactive-login norm
  ['CHORUS_HOST', 'http.host', 'string', '0.0.0.0'],
  ['PORT', 'http.port', 'integer', 3001],
  ['CHORUS_PUBLIC_URL', 'http.publicUrl', 'string', ''],
  ['CHORUS_MAX_BODY_BYTES', 'http.maxBodyBytes', 'integer', 1_048_576], // JSON bodies; Discord caps far below this
  ['CHORUS_MAX_UPLOAD_BYTES', 'http.maxUploadBytes', 'integer', 26_214_400], // files of one request: Discord's 25 MiB
  ['CHORUS_GLOBAL_RATE_LIMIT', 'http.globalRateLimitPerSecond', 'integer', 50], // Discord's global bot limit
  ['CHORUS_MESSAGE_RATE_LIMIT', 'http.messageRateLimit', 'integer', 5], // Discord: 5 messages ...
  ['CHORUS_MESSAGE_RATE_WINDOW_MS', 'http.messageRateWindowMs', 'integer', 5_000], // ... per 5 s per channel
  ['CHORUS_AUTH_CACHE_MS', 'http.authCacheMs', 'integer', 1_000], // cluster: a token revoked elsewhere works here <= this
  ['CHORUS_TRUSTED_PROXIES', 'http.trustedProxies', 'list', ''], // whose X-Forwarded-For is believed; none by default
  ['CHORUS_HEARTBEAT_INTERVAL_MS', 'gateway.heartbeatIntervalMs', 'integer', 41_250],
  ['CHORUS_RESUME_WINDOW_MS', 'gateway.resumeWindowMs', 'integer', 180_000], // Discord keeps sessions "a few minutes"
  ['CHORUS_RESUME_BUFFER', 'gateway.resumeBufferSize', 'integer', 2_000],
  ['CHORUS_MAX_CONCURRENCY', 'gateway.maxConcurrency', 'integer', 16],
  ['CHORUS_IDENTIFY_WINDOW_MS', 'gateway.identifyWindowMs', 'integer', 5_000], // 1 Identify per bucket per 5 s; 0: off
  ['CHORUS_SESSION_START_LIMIT', 'gateway.sessionStartLimit', 'integer', 1_000], // Discord's daily default
  ['CHORUS_IDENTIFY_TIMEOUT_MS', 'gateway.identifyTimeoutMs', 'integer', 20_000], // unidentified sockets are closed 4003
  ['CHORUS_MAILBOX_CAPACITY', 'actors.mailboxCapacity', 'integer', 10_000],
  ['CHORUS_IDLE_TIMEOUT_MS', 'actors.idleTimeoutMs', 'integer', 300_000],
  ['CHORUS_ASK_DEADLINE_MS', 'cluster.askDeadlineMs', 'integer', 5_000],
  ['CHORUS_VNODES', 'cluster.vnodesPerNode', 'integer', 128],
  ['CHORUS_MODE', 'backend.mode', 'string', 'embedded'],
  ['CHORUS_DATA_DIR', 'backend.dataDir', 'string', './data'],
  ['CHORUS_CASSANDRA_CONTACT_POINTS', 'backend.cassandra.contactPoints', 'list', '127.0.0.1'],
  ['CHORUS_CASSANDRA_DC', 'backend.cassandra.localDataCenter', 'string', 'datacenter1'],
  ['CHORUS_CASSANDRA_KEYSPACE', 'backend.cassandra.keyspace', 'string', 'chorus'],
  ['CHORUS_REDIS_URL', 'backend.redis.url', 'string', 'redis://127.0.0.1:6379'],
  ['CHORUS_REDIS_PREFIX', 'backend.redis.keyPrefix', 'string', 'chorus:'],
  ['CHORUS_GRPC_PORT', 'backend.grpcPort', 'integer', 0], // 0: an ephemeral port
  ['CHORUS_NODE_HOST', 'backend.nodeHost', 'string', '127.0.0.1'], // what peers dial; set per host in a real cluster
  ['CHORUS_CASSANDRA_RF', 'backend.cassandraReplicationFactor', 'integer', 1], // 3 on a three-node Cassandra
  ['CHORUS_MEMBER_HEARTBEAT_MS', 'backend.heartbeatMs', 'integer', 1_000],
  ['CHORUS_MEMBER_TTL_MS', 'backend.memberTtlMs', 'integer', 3_000], // a dead node leaves views within ~ttl + 1 s
  ['CHORUS_LEASE_TTL_MS', 'backend.leaseTtlMs', 'integer', 3_000], // its actors can move after this
] as const;

/** Environment variables loadConfig reads, for the README's table. */
export const CONFIG_VARIABLES = OPTIONS.map(([name, , , fallback]) => ({ name, fallback }));

const schema = {
  type: 'object',
  properties: {
    logLevel: { enum: ['info', 'warn', 'error', 'silent'] },
    passwordCost: { type: 'integer', minimum: 1024 },
    http: {
      type: 'object',
      properties: {
        port: { type: 'integer', minimum: 0, maximum: 65_535 },
        maxBodyBytes: { type: 'integer', minimum: 1024 },
        maxUploadBytes: { type: 'integer', minimum: 1 },
      },
    },
    gateway: {
      type: 'object',
      properties: {
        maxConcurrency: { type: 'integer', minimum: 1 },
        identifyWindowMs: { type: 'integer', minimum: 0 },
        sessionStartLimit: { type: 'integer', minimum: 1 },
        identifyTimeoutMs: { type: 'integer', minimum: 1 },
      },
    },
    backend: { type: 'object', properties: { mode: { enum: ['embedded', 'cluster'] } } },
  },
};

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
  node[parts[parts.length - 1] as string] = value;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** Builds the frozen Config from environment variables; throws listing every invalid one. */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<Record<string, string>> = {},
): Config {
  const source = { ...env, ...overrides };
  const config: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, path, type, fallback] of OPTIONS) {
    const raw = source[name];
    let value: unknown = raw === undefined || raw === '' ? fallback : raw;
    if (type === 'integer' && typeof value === 'string') {
      value = Number(value);
      if (!Number.isInteger(value)) problems.push(`${name} must be an integer, got "${raw}"`);
    }
    if (type === 'list' && typeof value === 'string') {
      value = value
        .split(',')
        .map((item) => item.trim().toLowerCase())
        .filter((item) => item !== '');
    }
    setPath(config, path, value);
  }
  const proxies = (config['http'] as { trustedProxies: string[] }).trustedProxies;
  try {
    proxyaddr.compile(proxies);
  } catch (error) {
    problems.push(`CHORUS_TRUSTED_PROXIES: ${(error as Error).message}`);
  }
  const validate = new Ajv({ allErrors: true }).compile(schema);
  if (!validate(config)) {
    for (const error of validate.errors ?? []) problems.push(`${error.instancePath} ${error.message ?? 'is invalid'}`);
  }
  if (problems.length > 0) throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return deepFreeze(config as unknown as Config);
}

/** The config with secrets masked, for logging. */
export function redactConfig(config: Config): Config {
  return { ...config, tokenSecret: config.tokenSecret ? '***' : '' };
}
