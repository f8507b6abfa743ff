import type { RawData } from 'ws';
import { KNOWN_INTENTS } from '../domain/intents.js';
import { jsonBoundsError } from '../domain/jsonBounds.js';
import { quoteUnsafeIntegers } from '../domain/losslessJson.js';
import { tokenFromHeader } from '../domain/tokens.js';
import type { IdentifyBody } from '../contract/realtime.js';
import { validate } from '../contract/validate.js';
import { decodeEtf } from './etf/etfDecode.js';
import { CloseCode, MAX_PAYLOAD_BYTES } from './gatewayProtocol.js';

/** A decoded client payload. */
export interface ClientPayload {
  readonly op: number;
  readonly d: unknown;
}

/** A payload the connection must answer by closing with this code. */
export interface Refusal {
  readonly closeCode: number;
}

/** True when a parse step refused the payload. */
export function isRefusal(value: object): value is Refusal {
  return 'closeCode' in value;
}

/** One WebSocket message's bytes, however `ws` delivered them. */
function messageBytes(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  return Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
}

/** Decodes one client message in the socket's `encoding` (decodeJsonPayload / decodeEtfClientPayload). */
export function decodeClientPayload(data: RawData, encoding: 'json' | 'etf' = 'json'): ClientPayload | Refusal {
  const bytes = messageBytes(data);
  return encoding === 'etf' ? decodeEtfClientPayload(bytes) : decodeJsonPayload(bytes);
}

/** Decodes one JSON client message: over 4096 bytes, nested past 32 levels or not a JSON object → 4002; `op` not an integer → 4001. */
function decodeJsonPayload(data: Buffer): ClientPayload | Refusal {
  if (data.length > MAX_PAYLOAD_BYTES) return { closeCode: CloseCode.DecodeError };
  const text = data.toString('utf8');
  if (jsonBoundsError(text)) return { closeCode: CloseCode.DecodeError };
  let value: unknown;
  try {
    // Snowflakes sent as JSON integers (discord.py's guild_id in op 4 and op 8) keep their digits.
    value = JSON.parse(quoteUnsafeIntegers(text));
  } catch {
    return { closeCode: CloseCode.DecodeError };
  }
  return payloadShape(value);
}

/**
 * The `encoding=etf` twin of decodeJsonPayload: same size bound (checked before decoding), depth 32,
 * malformed terms → 4002. Big integers past 2^53 arrive as decimal strings, so what follows (Identify,
 * op 8, op 14 ...) sees what the JSON path would and runs the same schema checks.
 */
export function decodeEtfClientPayload(data: Buffer): ClientPayload | Refusal {
  if (data.length > MAX_PAYLOAD_BYTES) return { closeCode: CloseCode.DecodeError };
  let value: unknown;
  try {
    value = decodeEtf(data);
  } catch {
    return { closeCode: CloseCode.DecodeError };
  }
  return payloadShape(value);
}

function payloadShape(value: unknown): ClientPayload | Refusal {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { closeCode: CloseCode.DecodeError };
  const { op, d } = value as { op?: unknown; d?: unknown };
  if (typeof op !== 'number' || !Number.isInteger(op)) return { closeCode: CloseCode.UnknownOpcode };
  return { op, d: d ?? null };
}

/** What the edge takes from an Identify before asking the Session actor. */
export interface IdentifyFields {
  readonly token: string;
  /** Decimal intents mask; every known intent when the client sent none (user accounts send none). */
  readonly intents: string;
  readonly shardId: number;
  /** 0 when the client sent no `shard`. */
  readonly shardCount: number;
  readonly propertiesJson: string;
  readonly presenceJson: string;
  /** Identify `compress: true`: per-payload zlib compression. */
  readonly compress: boolean;
  /** Identify `capabilities` (user clients): the shape of READY they read; 0 when absent. */
  readonly capabilities: number;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks an op 2 payload: IdentifySchema (4002), `shard` with 0 <= id < count (4010), `intents` a
 * non-negative integer of known bits (4013). `presence` is only checked to be an object: bots send
 * activities without the user-client fields the spec's ActivitySchema requires.
 */
export function parseIdentify(d: unknown): IdentifyFields | Refusal {
  if (!isObject(d)) return { closeCode: CloseCode.DecodeError };
  const { presence, ...rest } = d;
  let body: IdentifyBody;
  try {
    body = validate('IdentifySchema', rest);
  } catch {
    return { closeCode: CloseCode.DecodeError };
  }
  if (presence !== undefined && presence !== null && !isObject(presence)) return { closeCode: CloseCode.DecodeError };
  let shardId = 0;
  let shardCount = 0;
  if (body.shard) {
    [shardId, shardCount] = body.shard;
    if (!Number.isInteger(shardId) || !Number.isInteger(shardCount) || shardId < 0 || shardId >= shardCount) {
      return { closeCode: CloseCode.InvalidShard };
    }
  }
  let intents = KNOWN_INTENTS;
  if (body.intents !== undefined) {
    if (!Number.isSafeInteger(body.intents) || body.intents < 0) return { closeCode: CloseCode.InvalidIntents };
    intents = BigInt(body.intents);
    if ((intents & ~KNOWN_INTENTS) !== 0n) return { closeCode: CloseCode.InvalidIntents };
  }
  return {
    token: tokenFromHeader(body.token) ?? '',
    intents: intents.toString(),
    shardId,
    shardCount,
    propertiesJson: JSON.stringify(body.properties),
    presenceJson: isObject(presence) ? JSON.stringify(presence) : '',
    compress: body.compress === true,
    capabilities: body.capabilities ?? 0,
  };
}

/** What the edge takes from a Resume. */
export interface ResumeFields {
  readonly token: string;
  readonly sessionId: string;
  readonly seq: number;
}

/** Checks an op 6 payload `{token, session_id, seq}` (seq may be null: nothing received yet); 4002 otherwise. */
export function parseResume(d: unknown): ResumeFields | Refusal {
  if (!isObject(d)) return { closeCode: CloseCode.DecodeError };
  const { token, session_id: sessionId, seq } = d;
  if (typeof token !== 'string' || typeof sessionId !== 'string') return { closeCode: CloseCode.DecodeError };
  if (seq !== null && seq !== undefined && (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0)) {
    return { closeCode: CloseCode.DecodeError };
  }
  return { token: tokenFromHeader(token) ?? '', sessionId, seq: typeof seq === 'number' ? seq : 0 };
}
