import type { DispatchEvent } from '../../proto/gen/chorus/v1/common.js';
import type { ReadStateAck, ReadStateMessage, UserReply, UserRequest } from '../../proto/gen/chorus/v1/user.js';
import { MissingAccessError } from '../../src/domain/errors.js';
import type { ActorContext } from '../runtime/ActorContext.js';
import type { UserRecord } from '../runtime/ports/records.js';
import { readStateJson, type ReadStates } from './ReadStates.js';
import { callerOf, emptyReply, jsonReply } from './userTurn.js';

/** What a read-state command may use during one turn of a User actor. */
export interface ReadStateTurn {
  readonly ctx: ActorContext;
  /** The account as loaded (undefined: no such user, so nothing is kept for it). */
  readonly user: UserRecord | undefined;
  readonly guildIds: ReadonlySet<string>;
  readonly states: ReadStates;
  /** Sends an event to every session of the user. */
  dispatch(event: DispatchEvent): void;
  /** Has `flushReadStates` told to the actor shortly. */
  scheduleFlush(): void;
}

/** Read states are kept for people only (the edge refuses a bot's ack; a bot may still be mentioned). */
function keepsReadStates(turn: ReadStateTurn): boolean {
  return turn.user !== undefined && !turn.user.bot && !turn.user.deleted;
}

/**
 * Channel -> User: the user acked a channel the Channel let them see. Stored first; then MESSAGE_ACK
 * goes to every session of the user so the others clear their unread markers too.
 */
export async function ackReadState(turn: ReadStateTurn, ack: ReadStateAck): Promise<UserReply> {
  if (!keepsReadStates(turn) || !(await turn.states.ack(ack))) return emptyReply();
  const data = { channel_id: ack.channelId, message_id: ack.messageId, version: turn.ctx.clock.now(), ack_type: 0 };
  turn.dispatch({ event: 'MESSAGE_ACK', dataJson: JSON.stringify(data), intent: 0 });
  return emptyReply();
}

/**
 * Channel -> User: a new message the user wrote or is mentioned in. A mention in a guild the user is not
 * in does not count (the Channel resolves mentions from the text, which may name anyone).
 */
export async function readStateMessage(turn: ReadStateTurn, message: ReadStateMessage): Promise<UserReply> {
  if (!keepsReadStates(turn)) return emptyReply();
  if (!message.own && message.guildId !== '' && !turn.guildIds.has(message.guildId)) return emptyReply();
  if (await turn.states.message(message)) turn.scheduleFlush();
  return emptyReply();
}

/** The timer: writes what own messages and mentions changed. */
export async function flushReadStates(turn: ReadStateTurn): Promise<UserReply> {
  await turn.states.flush();
  return emptyReply();
}

/** READY's read_state entries (the user's own only). */
export async function listReadStates(turn: ReadStateTurn, request: UserRequest): Promise<UserReply> {
  if (callerOf(request).userId !== turn.ctx.key) throw new MissingAccessError();
  if (!keepsReadStates(turn)) return jsonReply([]);
  return jsonReply((await turn.states.list()).map(readStateJson));
}
