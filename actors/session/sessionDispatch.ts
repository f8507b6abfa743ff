import type { DispatchEvent } from '../../proto/gen/chorus/v1/common.js';
import { allowsDispatch, dataSeenBy } from '../../src/domain/intents.js';
import type { DurableSession } from './DurableSession.js';
import type { MemberListWatch } from './memberListWatch.js';
import type { Identity } from './sessionRecord.js';

// How a Session actor takes a dispatch: filtered by its intents (and MESSAGE_CONTENT), numbered and kept for
// replay by its journal, written, then pushed to its socket. Two ways in, one journal, so a Resume replays what
// either delivered: a mailbox turn, or at once for a fan-out to an idle session. Functions, not an object per session.

/** What a dispatch reaches in its session. */
export interface DispatchTarget {
  readonly session: DurableSession;
  readonly memberLists: MemberListWatch;
  readonly identity: Identity;
}

/**
 * Delivers `event` in a turn, then, when it moved a member list the session follows, `refresh`es that list
 * (it asks the guild); settles with `reply` once the frame was written and pushed.
 */
export function dispatchInTurn<R>(
  target: DispatchTarget,
  event: DispatchEvent,
  reply: R,
  refresh: (guildId: string) => Promise<void>,
): Promise<R> {
  const frame = frameOf(target, event);
  if (frame === undefined) return Promise.resolve(reply);
  return target.memberLists.after(event, target.session.deliver([frame], reply), refresh);
}

/**
 * Delivers `event` at once, outside a turn (Actor.serveNow), when nothing needs a wait: the store applies
 * writes on call and the event moves no followed member list. False, having changed nothing, otherwise.
 */
export function dispatchNow(target: DispatchTarget, event: DispatchEvent): boolean {
  const { session } = target;
  if (!session.deliversNow || target.memberLists.movedBy(event) !== undefined) return false;
  const frame = frameOf(target, event);
  if (frame !== undefined) session.deliverNow([frame]);
  return true;
}

/** The event's frame as this session gets it, numbered and kept; undefined when its intents filter it out. */
function frameOf({ session, identity }: DispatchTarget, event: DispatchEvent): string | undefined {
  if (!allowsDispatch(identity.intents, event.intent)) return undefined;
  const data = dataSeenBy(identity.caller.bot, identity.intents, identity.userId, event);
  return session.journal.record(event.event, data);
}
