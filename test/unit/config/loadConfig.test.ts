import assert from 'node:assert/strict';
import { CONFIG_OPTIONS } from '../../../src/config/configOptions.js';
import { loadConfig } from '../../../src/config/loadConfig.js';

/** The message loadConfig throws for `env`, or '' when it loads. */
function problemsOf(env: Record<string, string>): string {
  try {
    loadConfig({}, env);
    return '';
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * A value each option refuses and the words its message must use for what is allowed; null where
 * every value is valid (unset or empty means the default, empty list items are dropped).
 */
const INVALID: Record<string, readonly [string, RegExp] | null> = {
  CHORUS_LOG_LEVEL: ['debug', /one of info, warn, error, silent/],
  CHORUS_TOKEN_SECRET: null, // any text is a secret
  CHORUS_OPERATOR_EMAILS: null, // any list of non-empty items (empty items are dropped)
  CHORUS_PASSWORD_COST: ['512', /an integer >= 1024/],
  CHORUS_HOST: null, // any non-empty text (empty means the default)
  PORT: ['abc', /an integer 0-65535/],
  CHORUS_PUBLIC_URL: ['chat.example.test', /empty or an http\(s\) URL/],
  CHORUS_MAX_BODY_BYTES: ['1023', /an integer >= 1024/],
  CHORUS_MAX_UPLOAD_BYTES: ['0', /an integer >= 1/],
  CHORUS_GLOBAL_RATE_LIMIT: ['-1', /an integer >= 1/],
  CHORUS_MESSAGE_RATE_LIMIT: ['0', /an integer >= 1/],
  CHORUS_MESSAGE_RATE_WINDOW_MS: ['1.5', /an integer >= 1/],
  CHORUS_AUTH_CACHE_MS: ['-5', /an integer >= 0/],
  CHORUS_TRUSTED_PROXIES: ['loopback,not-an-address', /each an IP address, a CIDR range, loopback/],
  CHORUS_OUTBOUND_ALLOW_PRIVATE: ['10.0.0.0/8,intranet', /each an IP address, a CIDR range, loopback/],
  CHORUS_HEARTBEAT_INTERVAL_MS: ['0', /an integer >= 1/],
  CHORUS_RESUME_WINDOW_MS: ['soon', /an integer >= 0/],
  CHORUS_RESUME_BUFFER: ['-1', /an integer >= 0/],
  CHORUS_MAX_CONCURRENCY: ['0', /an integer >= 1/],
  CHORUS_IDENTIFY_WINDOW_MS: ['-1', /an integer >= 0/],
  CHORUS_SESSION_START_LIMIT: ['0', /an integer >= 1/],
  CHORUS_IDENTIFY_TIMEOUT_MS: ['0', /an integer >= 1/],
  CHORUS_VOICE_PORT: ['70000', /an integer 0-65535/],
  CHORUS_VOICE_PUBLIC_HOST: null, // any host (empty means the default)
  CHORUS_VOICE_HEARTBEAT_INTERVAL_MS: ['50', /an integer >= 100/],
  CHORUS_VOICE_TLS_CERT: null, // a path, read at start (empty: a generated self-signed certificate)
  CHORUS_VOICE_TLS_KEY: null, // a path, read at start
  CHORUS_VOICE_RTC_PORT_MIN: ['-1', /an integer 0-65535/],
  CHORUS_VOICE_RTC_PORT_MAX: ['65536', /an integer 0-65535/],
  CHORUS_METRICS: ['maybe', /one of on, off/],
  CHORUS_METRICS_TOKEN: null, // any text (empty: no token asked)
  OTEL_EXPORTER_OTLP_ENDPOINT: ['collector:4318', /empty or an http\(s\) URL/],
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: ['ftp://collector/v1/traces', /empty or an http\(s\) URL/],
  OTEL_SERVICE_NAME: null, // any non-empty name
  OTEL_BSP_SCHEDULE_DELAY: ['-1', /an integer >= 0/],
  CHORUS_ADMIN_TOKEN: null, // any text (empty: OPERATOR users only)
  CHORUS_INSTANCE_NAME: null, // any text (empty: the default)
  CHORUS_INSTANCE_DESCRIPTION: null, // any text
  CHORUS_INSTANCE_FRONT_PAGE: ['harbour', /empty or an http\(s\) URL/],
  CHORUS_INSTANCE_TOS_PAGE: ['ftp://harbour.example/tos', /empty or an http\(s\) URL/],
  CHORUS_INSTANCE_EMAIL: null, // any text
  CHORUS_MAILBOX_CAPACITY: ['0', /an integer >= 1/],
  CHORUS_IDLE_TIMEOUT_MS: ['ten', /an integer >= 1/],
  CHORUS_LARGE_GUILD_MEMBERS: ['0', /an integer >= 1/],
  CHORUS_ASK_DEADLINE_MS: ['0', /an integer >= 1/],
  CHORUS_VNODES: ['0', /an integer >= 1/],
  CHORUS_DRAIN_TIMEOUT_MS: ['-1', /an integer >= 0/],
  CHORUS_MODE: ['solo', /one of embedded, cluster/],
  CHORUS_DATA_DIR: null, // any non-empty path
  CHORUS_CASSANDRA_CONTACT_POINTS: [' , ', /a non-empty comma-separated list/],
  CHORUS_CASSANDRA_DC: null, // any non-empty name
  CHORUS_CASSANDRA_KEYSPACE: ['Chorus-Test', /text matching/],
  CHORUS_REDIS_URL: ['http://127.0.0.1:6379', /a redis:\/\/ or rediss:\/\/ URL/],
  CHORUS_REDIS_PREFIX: null, // any prefix, even none
  CHORUS_GRPC_PORT: ['65536', /an integer 0-65535/],
  CHORUS_NODE_HOST: null, // any non-empty host
  CHORUS_CASSANDRA_RF: ['0', /an integer >= 1/],
  CHORUS_MEMBER_HEARTBEAT_MS: ['0', /an integer >= 1/],
  CHORUS_MEMBER_TTL_MS: ['0', /an integer >= 1/],
  CHORUS_LEASE_TTL_MS: ['0', /an integer >= 1/],
};

describe('loadConfig', () => {
  it('has a case below for every option of the schema', () => {
    assert.deepEqual(CONFIG_OPTIONS.map((option) => option.env).sort(), Object.keys(INVALID).sort());
  });

  for (const option of CONFIG_OPTIONS) {
    const invalid = INVALID[option.env];
    if (!invalid) continue;
    const [bad, allowed] = invalid;
    it(`refuses ${option.env}="${bad}", naming the variable and what it allows`, () => {
      const message = problemsOf({ [option.env]: bad });
      assert.match(message, new RegExp(`^  ${option.env} \\(${option.path.replaceAll('.', '\\.')}\\) must be `, 'm'));
      assert.match(message, allowed);
      assert.ok(message.includes(`got "${bad}"`), message);
    });
  }

  it('lists every invalid variable at once', () => {
    const message = problemsOf({ PORT: 'abc', CHORUS_MODE: 'solo', CHORUS_VNODES: '0' });
    assert.match(message, /^Invalid configuration:\n/);
    for (const name of ['PORT', 'CHORUS_MODE', 'CHORUS_VNODES']) assert.match(message, new RegExp(`^  ${name} `, 'm'));
  });

  it('gives the defaults when nothing is set (or a variable is empty)', () => {
    const config = loadConfig({}, { CHORUS_PUBLIC_URL: '' });
    assert.deepEqual(JSON.parse(JSON.stringify(config)), {
      logLevel: 'info',
      tokenSecret: '',
      operatorEmails: [],
      passwordCost: 16_384,
      instance: { name: 'Chorus', description: '', frontPage: '', tosPage: '', correspondenceEmail: '' },
      http: {
        host: '0.0.0.0',
        port: 3001,
        publicUrl: '',
        maxBodyBytes: 1_048_576,
        maxUploadBytes: 26_214_400,
        globalRateLimitPerSecond: 50,
        messageRateLimit: 5,
        messageRateWindowMs: 5_000,
        authCacheMs: 1_000,
        trustedProxies: [],
        outboundAllowPrivate: [],
      },
      gateway: {
        heartbeatIntervalMs: 41_250,
        resumeWindowMs: 180_000,
        resumeBufferSize: 2_000,
        maxConcurrency: 16,
        identifyWindowMs: 5_000,
        sessionStartLimit: 1_000,
        identifyTimeoutMs: 20_000,
      },
      voice: {
        port: 0,
        publicHost: '',
        heartbeatIntervalMs: 41_250,
        tlsCertPath: '',
        tlsKeyPath: '',
        rtcPortMin: 0,
        rtcPortMax: 0,
      },
      metrics: { enabled: 'on', token: '' },
      tracing: { endpoint: '', tracesEndpoint: '', serviceName: 'chorus', scheduleDelayMs: 5000 },
      operator: { adminToken: '' },
      actors: { mailboxCapacity: 10_000, idleTimeoutMs: 300_000, largeGuildMembers: 250 },
      cluster: { askDeadlineMs: 5_000, vnodesPerNode: 128, drainTimeoutMs: 10_000 },
      backend: {
        mode: 'embedded',
        dataDir: './data',
        cassandra: { contactPoints: ['127.0.0.1'], localDataCenter: 'datacenter1', keyspace: 'chorus' },
        redis: { url: 'redis://127.0.0.1:6379', keyPrefix: 'chorus:' },
        grpcPort: 0,
        nodeHost: '127.0.0.1',
        cassandraReplicationFactor: 1,
        heartbeatMs: 1_000,
        memberTtlMs: 3_000,
        leaseTtlMs: 3_000,
      },
    });
  });

  it('reads integers, lists (trimmed, lower-cased, empty items dropped) and text', () => {
    const config = loadConfig(
      { PORT: '8080', CHORUS_OPERATOR_EMAILS: ' Ops@Example.com, ,root@example.com' },
      { CHORUS_TRUSTED_PROXIES: 'loopback, 10.0.0.0/8', CHORUS_MODE: 'cluster', CHORUS_REDIS_URL: 'rediss://r:6380' },
    );
    assert.equal(config.http.port, 8080);
    assert.deepEqual(config.operatorEmails, ['ops@example.com', 'root@example.com']);
    assert.deepEqual(config.http.trustedProxies, ['loopback', '10.0.0.0/8']);
    assert.equal(config.backend.mode, 'cluster');
    assert.equal(config.backend.redis.url, 'rediss://r:6380');
  });

  it('lets overrides win over the environment, and freezes the result', () => {
    const config = loadConfig({ PORT: '1' }, { PORT: '2' });
    assert.equal(config.http.port, 2);
    assert.equal(Object.isFrozen(config.http), true);
    assert.equal(Object.isFrozen(config.backend.cassandra.contactPoints), true);
  });
});
