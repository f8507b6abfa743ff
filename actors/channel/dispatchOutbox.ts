import { compareSnowflakes, snowflakeTimestampMs } from '../../src/domain/snowflake.js';
import type { MessageRecord } from '../runtime/ports/records.js';
import { viewAccess } from './channelAccess.js';
import { messageEventJson } from './channelEvents.js';
import type { ChannelScope } from './ChannelScope.js';
import { NONCE_WINDOW_MS } from './NonceCache.js';

/**
 * The MESSAGE_CREATE outbox of one channel activation. A message is stored before its event is told
 * to the Guild (or the DM recipients), so a node killed between the two leaves a stored message that
 * nobody dispatched. The next activation (on another node) dispatches such messages again:
 *
 * - at activation, the messages the previous activation stored but never flushed as last_message_id
 *   (see settle: a timer flush writes an id only one flush period after noting it, and deactivation
 *   writes the newest), i.e. those it may have died before dispatching;
 * - on a nonce retry that finds a message an earlier activation stored (its author never saw an
 *   acknowledgement, so maybe nobody saw the event either), once, before replying.
 *
 * Delivery is at least once: a session that already had the event gets it again (clients dedupe by
 * message id). That happens only after a failover (a killed or deposed node, or a retry that crossed
 * a handoff), never in steady state: this activation's own messages are never dispatched twice, and a
 * clean deactivation flushes the newest id, so the next activation inherits nothing to re-dispatch.
 */
export class DispatchOutbox {
  /** Recent messages (ids) an earlier activation stored and this one has not dispatched. */
  readonly #inherited = new Set<string>();
  /** The newest message id the previous timer flush saw; the next timer flush writes it. */
  #noted: string | null = null;

  /**
   * Takes the activation read (newest first) and the last_message_id stored before it; returns the
   * messages of the last NONCE_WINDOW_MS newer than that id (never flushed: the previous activation
   * died, or was deposed, within a flush period of storing them), oldest first. Older recent
   * messages are remembered for nonce retries.
   */
  inherit(recent: readonly MessageRecord[], flushedId: string | null, nowMs: number): MessageRecord[] {
    const unflushed: MessageRecord[] = [];
    for (const record of recent) {
      if (nowMs - snowflakeTimestampMs(record.id) > NONCE_WINDOW_MS) break;
      if (flushedId === null || compareSnowflakes(record.id, flushedId) > 0) unflushed.push(record);
      else this.#inherited.add(record.id);
    }
    return unflushed.reverse();
  }

  /** True, once, for a message an earlier activation stored: the caller dispatches it again. */
  claim(messageId: string): boolean {
    return this.#inherited.delete(messageId);
  }

  /**
   * The last_message_id a timer flush writes: the one the previous timer flush saw, so a stored id
   * is at least one flush period older than its message's event (see the class comment). The caller
   * keeps the stored id when it is newer, and flushes again while the two differ.
   */
  settle(newest: string | null): string | null {
    const settled = this.#noted;
    this.#noted = newest;
    return settled;
  }
}

/** Why a message is dispatched again: found unflushed at activation, or by a nonce retry. */
type RedispatchReason = 'activation' | 'retry';

/**
 * Dispatches MESSAGE_CREATE again for a message an earlier activation stored, as it was created (no
 * reactions); `rendered` is the message JSON already rendered for the reply, when there is one.
 * DM channel announcements (CHANNEL_CREATE of a first message) are not repeated.
 */
export async function redispatch(
  scope: ChannelScope,
  record: MessageRecord,
  memberJson: string,
  reason: RedispatchReason,
  rendered?: Record<string, unknown>,
): Promise<void> {
  // As it was created: a new message has no reactions yet.
  const json = { ...(rendered ?? (await scope.render([record], record.author_id))[0]), reactions: [] };
  scope.emit('MESSAGE_CREATE', messageEventJson(scope.channel, JSON.stringify(json), memberJson));
  scope.ctx.log.info('message_redispatched', { message_id: record.id, reason });
}

/**
 * At activation: dispatches again, oldest first, the messages the previous activation may have died
 * before dispatching (see DispatchOutbox.inherit), each with its author's member object when the
 * Guild answers. Best effort: a failure is logged and never fails the activation.
 */
export async function redispatchUnflushed(scope: ChannelScope, records: readonly MessageRecord[]): Promise<void> {
  for (const record of records) {
    try {
      const access = await viewAccess(scope.ctx, scope.channel, record.author_id, scope.accessCache).catch(
        () => undefined,
      );
      await redispatch(scope, record, access?.memberJson ?? '', 'activation');
    } catch (error) {
      scope.ctx.log.warn('message_redispatch_failed', { message_id: record.id, err: error });
    }
  }
}
