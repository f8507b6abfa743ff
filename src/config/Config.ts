import type { ActorOptions } from '../../actors/runtime/ActorHost.js';
import type { ClusterOptions } from '../../cluster/ActorSystem.js';
import type { LogLevel } from '../domain/Logger.js';

/** HTTP edge options. */
export interface HttpOptions {
  readonly host: string;
  readonly port: number;
  /**
   * Base URL clients reach this node at (the gateway, API and CDN URLs given out); when empty, each
   * request's own scheme and Host (see src/http/publicOrigin.ts), or host:port where there is none.
   */
  readonly publicUrl: string;
  /** Largest accepted request body. */
  readonly maxBodyBytes: number;
  /** Largest total of the files one multipart request uploads (message attachments; Discord: 25 MiB). */
  readonly maxUploadBytes: number;
  /** Requests per second one user (or IP) may make across all routes. */
  readonly globalRateLimitPerSecond: number;
  /** Messages one user may send per channel per window (Discord: 5 per 5 s). */
  readonly messageRateLimit: number;
  readonly messageRateWindowMs: number;
  /** How long an edge trusts a caller a User actor on another node authenticated (0: ask every time). */
  readonly authCacheMs: number;
  /**
   * Proxies whose X-Forwarded-For is believed (addresses, CIDR ranges or proxy-addr's names such as
   * `loopback`); empty: the header is ignored and the client is the socket's peer.
   */
  readonly trustedProxies: readonly string[];
}

/** Gateway options. */
export interface GatewayOptions {
  readonly heartbeatIntervalMs: number;
  /** How long a session survives without a socket, waiting for a Resume. */
  readonly resumeWindowMs: number;
  /** Dispatches a session keeps for replay. */
  readonly resumeBufferSize: number;
  /** Identify buckets per user (max_concurrency): one Identify per bucket per `identifyWindowMs`. */
  readonly maxConcurrency: number;
  /** Discord's 5 s Identify window; 0 turns the concurrency check off (test harnesses identify in bursts). */
  readonly identifyWindowMs: number;
  /** Session starts per 24 h per user (session_start_limit.total). */
  readonly sessionStartLimit: number;
  /** A socket with no Identify (or Resume) this long after Hello is closed 4003; heartbeats do not extend it. */
  readonly identifyTimeoutMs: number;
}

/** Storage and cluster backends. */
export interface BackendOptions {
  readonly mode: 'embedded' | 'cluster';
  readonly dataDir: string;
  readonly cassandra: {
    readonly contactPoints: readonly string[];
    readonly localDataCenter: string;
    readonly keyspace: string;
  };
  readonly redis: { readonly url: string; readonly keyPrefix: string };
  readonly grpcPort: number;
  /** Host other nodes reach this node's gRPC server at (cluster mode). */
  readonly nodeHost: string;
  readonly cassandraReplicationFactor: number;
  /** Membership heartbeat period and expiry, and actor lease lifetime (cluster mode). */
  readonly heartbeatMs: number;
  readonly memberTtlMs: number;
  readonly leaseTtlMs: number;
}

/** The whole configuration: one frozen object built by loadConfig(). */
export interface Config {
  readonly logLevel: LogLevel;
  /** HMAC key for tokens; generated and kept in dataDir when not configured. */
  readonly tokenSecret: string;
  /** Emails whose registration gets the OPERATOR right (lower-cased). */
  readonly operatorEmails: readonly string[];
  /** scrypt cost parameter N (a power of two). */
  readonly passwordCost: number;
  readonly http: HttpOptions;
  readonly gateway: GatewayOptions;
  readonly actors: ActorOptions;
  readonly cluster: ClusterOptions;
  readonly backend: BackendOptions;
}
