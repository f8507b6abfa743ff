import type { Caller } from '../../proto/gen/chorus/v1/common.js';
import type { Identify } from '../../proto/gen/chorus/v1/session.js';
import type { SessionRecord, SessionSocket } from '../runtime/ports/sessionStore.js';

/** Who the session belongs to and what it asked for, fixed at Identify. */
export interface Identity {
  readonly userId: string;
  readonly caller: Caller;
  readonly intents: number;
  /** The intents as the decimal string the proto carries. */
  readonly intentsText: string;
  readonly shardId: number;
  readonly shardCount: number;
  /** Identify `capabilities` (user clients; 0 for bots and clients that sent none). */
  readonly capabilities: number;
}

/** The identity an Identify gives the authenticated `caller` (capabilities are for user clients only). */
export function identityAt(caller: Caller, identify: Identify): Identity {
  return {
    userId: caller.userId,
    caller,
    intents: Number(identify.intents),
    intentsText: identify.intents,
    shardId: identify.shardId,
    shardCount: identify.shardCount,
    capabilities: caller.bot ? 0 : identify.capabilities,
  };
}

/** The parts of a session's state that change after Identify. */
export interface SessionProgress {
  readonly guildIds: Iterable<string>;
  readonly status: string;
  readonly seq: number;
  readonly floor: number;
  readonly socket: SessionSocket | undefined;
  readonly createdAtMs: number;
  readonly detachedAtMs: number | undefined;
}

/** The record a Session actor saves: its identity and progress. */
export function sessionRecord(identity: Identity, progress: SessionProgress): SessionRecord {
  return {
    userId: identity.userId,
    bot: identity.caller.bot,
    rights: identity.caller.rights,
    intents: identity.intentsText,
    shardId: identity.shardId,
    shardCount: identity.shardCount,
    capabilities: identity.capabilities,
    guildIds: [...progress.guildIds],
    status: progress.status,
    seq: progress.seq,
    floor: progress.floor,
    socket: progress.socket && { nodeId: progress.socket.nodeId, socketId: progress.socket.socketId },
    createdAtMs: progress.createdAtMs,
    detachedAtMs: progress.detachedAtMs,
  };
}

/** The identity a saved record describes (a session re-activated from the store). */
export function identityOf(record: SessionRecord): Identity {
  return {
    userId: record.userId,
    caller: { userId: record.userId, bot: record.bot, rights: record.rights },
    intents: Number(record.intents),
    intentsText: record.intents,
    shardId: record.shardId,
    shardCount: record.shardCount,
    capabilities: record.capabilities,
  };
}
