import type { DispatchEvent } from '../../proto/gen/chorus/v1/common.js';
import { isJsonObject, parseJson } from '../../src/domain/jsonValue.js';
import type { ListRange } from './memberList.js';

/** Events that move a guild's member list: someone comes, goes, or changes status. */
const LIST_MOVERS = new Set(['PRESENCE_UPDATE', 'GUILD_MEMBER_ADD', 'GUILD_MEMBER_REMOVE']);
/** Guilds whose lists one session follows at most (a client follows the guild it shows). */
const MAX_WATCHED = 25;

/**
 * The member-list ranges a session asked for (op 14 / 37), per guild, kept in memory: when an event moves
 * that guild's list, the session sends the ranges again as a fresh SYNC, so the online group and the
 * counts follow people coming and going (a whole-range SYNC rather than row-level INSERT/DELETE ops).
 */
export class MemberListWatch {
  readonly #ranges = new Map<string, ListRange[]>();

  /** Remembers the ranges last asked for in a guild. */
  watch(guildId: string, ranges: ListRange[]): void {
    this.#ranges.delete(guildId);
    this.#ranges.set(guildId, ranges);
    if (this.#ranges.size > MAX_WATCHED) this.#ranges.delete(this.#ranges.keys().next().value ?? '');
  }

  /**
   * `delivered` (the event's delivery), then, when the event moved a list this session follows, `lazyRequest`
   * with its ranges again, in the same turn; a failed re-sync leaves the list as it was until the next move.
   */
  after<R>(event: DispatchEvent, delivered: Promise<R>, lazyRequest: (dataJson: string) => Promise<void>): Promise<R> {
    const resync = this.resyncOf(event);
    if (resync === undefined) return delivered;
    return delivered.then((reply) =>
      lazyRequest(resync).then(
        () => reply,
        () => reply,
      ),
    );
  }

  /** The op 14 `d` that re-syncs the list `event` moved, or undefined when it moved none this session follows. */
  resyncOf(event: DispatchEvent): string | undefined {
    if (this.#ranges.size === 0 || !LIST_MOVERS.has(event.event)) return undefined;
    let data: unknown;
    try {
      data = parseJson(event.dataJson);
    } catch {
      return undefined;
    }
    const guildId = isJsonObject(data) ? data['guild_id'] : undefined;
    const ranges = typeof guildId === 'string' ? this.#ranges.get(guildId) : undefined;
    return ranges ? JSON.stringify({ guild_id: guildId, channels: { list: ranges } }) : undefined;
  }
}
