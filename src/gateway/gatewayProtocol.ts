/** Gateway opcodes (Discord's numbering). */
export const GatewayOp = {
  Dispatch: 0,
  Heartbeat: 1,
  Identify: 2,
  PresenceUpdate: 3,
  VoiceStateUpdate: 4,
  Resume: 6,
  Reconnect: 7,
  RequestGuildMembers: 8,
  InvalidSession: 9,
  Hello: 10,
  HeartbeatAck: 11,
  LazyRequest: 14,
  GuildSubscriptionsBulk: 37,
} as const;

/** Gateway close codes (Discord's GatewayCloseCodes). */
export const CloseCode = {
  UnknownError: 4000,
  UnknownOpcode: 4001,
  DecodeError: 4002,
  NotAuthenticated: 4003,
  AuthenticationFailed: 4004,
  AlreadyAuthenticated: 4005,
  RateLimited: 4008,
  SessionTimedOut: 4009,
  InvalidShard: 4010,
  InvalidApiVersion: 4012,
  InvalidIntents: 4013,
} as const;

/** The reason text sent with each close code. */
export const CLOSE_REASON: Readonly<Record<number, string>> = {
  4000: 'Unknown error.',
  4001: 'Unknown opcode.',
  4002: 'Decode error.',
  4003: 'Not authenticated.',
  4004: 'Authentication failed.',
  4005: 'Already authenticated.',
  4008: 'Rate limited.',
  4009: 'Session timed out.',
  4010: 'Invalid shard.',
  4012: 'Invalid API version.',
  4013: 'Invalid intent(s).',
};

/**
 * Codes after which clients resume (discord.js WebSocketShard: 4000-4002, 4009), so the session
 * waits for them; after any other server close the session ends at once.
 */
export const RESUMABLE_CLOSE_CODES: ReadonlySet<number> = new Set([4000, 4001, 4002, 4009]);

/** Client ops the Session actor serves. */
export const SESSION_OPS: ReadonlySet<number> = new Set([3, 4, 8, 14, 37]);

/** User-client ops that are accepted and ignored (voice ping, call connect, streams, QoS heartbeat, ...). */
export const IGNORED_OPS: ReadonlySet<number> = new Set([
  5, 12, 13, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 38, 39, 40, 41, 42, 43,
]);

/** Largest client payload (Discord: 4096 bytes, else 4002). */
export const MAX_PAYLOAD_BYTES = 4096;
/** Client payloads allowed per window (Discord: 120 per 60 s, else 4008). */
export const PAYLOAD_LIMIT = 120;
export const PAYLOAD_WINDOW_MS = 60_000;
/** Bytes queued on a socket beyond which it is moved (op 7 + close 4000) rather than fed more. */
export const BACKPRESSURE_BYTES = 8 * 1024 * 1024;

/** op 10 Hello. */
export function helloFrame(heartbeatIntervalMs: number): string {
  return `{"op":10,"d":{"heartbeat_interval":${heartbeatIntervalMs}},"s":null,"t":null}`;
}

/** op 11 Heartbeat ACK (constant, so the heartbeat path allocates nothing). */
export const HEARTBEAT_ACK_FRAME = '{"op":11,"d":null,"s":null,"t":null}';
/** op 7 Reconnect. */
export const RECONNECT_FRAME = '{"op":7,"d":null,"s":null,"t":null}';

/** op 9 Invalid Session; `resumable` is `d`. */
export function invalidSessionFrame(resumable: boolean): string {
  return `{"op":9,"d":${resumable},"s":null,"t":null}`;
}
