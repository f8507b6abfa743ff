import type { DispatchEvent } from '../../proto/gen/chorus/v1/common.js';
import { isJsonObject, parseJson } from '../../src/domain/jsonValue.js';
import { listOps, type ListRow } from './listOps.js';
import { listUpdateJson, listWindows, syncOps, type ListItem, type ListRange, type MemberList } from './memberList.js';

/** Events that move a guild's member list: someone comes, goes, changes status or changes (nick, roles). */
const LIST_MOVERS = new Set(['PRESENCE_UPDATE', 'GUILD_MEMBER_ADD', 'GUILD_MEMBER_REMOVE', 'GUILD_MEMBER_UPDATE']);
/** Guilds whose lists one session follows at most (a client follows the guild it shows). */
const MAX_WATCHED = 25;

/** What a session last sent of one guild's list: the rows of its windows (keys and stamps only) and the sizes. */
interface SentList {
  readonly windows: readonly ListRange[];
  rows: ListRow[][];
  /** Rows of the whole list, header rows included (what the client's setGroups made it). */
  length: number;
  /** The groups and counts as last sent. */
  counts: string;
}

interface StampedRow extends ListRow {
  readonly item: ListItem;
}

/**
 * What a session showed of each guild's member list it asked for (op 14 / 37), kept in memory: per guild
 * only the requested windows' rows, each as a key and a fingerprint, so it stays small. When an event
 * moves that guild's list, the session computes the new rows and sends one GUILD_MEMBER_LIST_UPDATE whose
 * DELETE / INSERT / UPDATE ops turn the old rows into the new ones, with the new groups and counts; a SYNC
 * of the windows instead when that is smaller or when row shifts below a window would land wrongly.
 */
export class MemberListWatch {
  /** Made with the first op 14: most sessions never send one (an empty Map is about 280 bytes per session). */
  #lists: Map<string, SentList> | undefined;

  /** The op 14 answer, a SYNC of `ranges`, remembered as what the client now shows of the guild's list. */
  sync(guildId: string, ranges: readonly ListRange[], list: MemberList): string {
    const windows = listWindows(ranges);
    const rows = windows.map((window) => windowRows(list, window).map(keyAndStamp));
    const lists = (this.#lists ??= new Map());
    lists.delete(guildId);
    lists.set(guildId, { windows, rows, length: list.length, counts: countsOf(list) });
    if (lists.size > MAX_WATCHED) lists.delete(lists.keys().next().value ?? '');
    return listUpdateJson(guildId, list, syncOps(list, windows));
  }

  /**
   * The update that turns what the client shows into `list` (row ops, or a SYNC when smaller), remembered as
   * sent; undefined when the session does not follow the guild's list or nothing it shows changed.
   */
  move(guildId: string, list: MemberList): string | undefined {
    const sent = this.#lists?.get(guildId);
    if (!sent) return undefined;
    const fresh = sent.windows.map((window) => windowRows(list, window));
    const ops = rowOps(sent, fresh, list.length);
    const counts = countsOf(list);
    sent.rows = fresh.map((rows) => rows.map(keyAndStamp));
    sent.length = list.length;
    if (ops?.length === 0 && counts === sent.counts) return undefined;
    sent.counts = counts;
    return listUpdateJson(guildId, list, ops ?? syncOps(list, sent.windows));
  }

  /** Stops following a guild's list (the session left the guild). */
  forget(guildId: string): void {
    this.#lists?.delete(guildId);
  }

  /**
   * `delivered` (the event's delivery), then, when the event moved a list this session follows, `refresh`
   * of that guild's list, in the same turn; a failed refresh leaves the list as it was until the next move.
   */
  after<R>(event: DispatchEvent, delivered: Promise<R>, refresh: (guildId: string) => Promise<void>): Promise<R> {
    const guildId = this.movedBy(event);
    if (guildId === undefined) return delivered;
    return delivered.then((reply) =>
      refresh(guildId).then(
        () => reply,
        () => reply,
      ),
    );
  }

  /** The guild whose followed list `event` moved, or undefined when it moved none this session follows. */
  movedBy(event: DispatchEvent): string | undefined {
    const lists = this.#lists;
    if (lists === undefined || lists.size === 0 || !LIST_MOVERS.has(event.event)) return undefined;
    let data: unknown;
    try {
      data = parseJson(event.dataJson);
    } catch {
      return undefined;
    }
    const guildId = isJsonObject(data) ? data['guild_id'] : undefined;
    return typeof guildId === 'string' && lists.has(guildId) ? guildId : undefined;
  }
}

/**
 * The wire ops that turn the sent windows into `fresh`, or undefined when a SYNC is needed: when they would
 * outnumber the rows, or when the list's end moved past a window's start (the rows the client has below
 * that window then shift by a count the window's own ops do not see).
 */
function rowOps(sent: SentList, fresh: readonly StampedRow[][], length: number): unknown[] | undefined {
  const shorter = Math.min(sent.length, length);
  const longer = Math.max(sent.length, length);
  if (sent.windows.some(([first]) => shorter < first && first < longer)) return undefined;
  const ops: unknown[] = [];
  let rowCount = 0;
  // With no window start between the two ends, only a window holding the list's end changes length, and every
  // window after it is empty in both lists: each window's ops leave the other windows' rows where they were.
  for (let index = 0; index < sent.windows.length; index += 1) {
    const first = sent.windows[index]?.[0] ?? 0;
    const rows = fresh[index] ?? [];
    rowCount += rows.length;
    for (const op of listOps(sent.rows[index] ?? [], rows, isGroupHeader)) {
      const at = first + op.index;
      ops.push(op.op === 'DELETE' ? { op: op.op, index: at } : { op: op.op, index: at, item: op.row.item });
    }
  }
  return ops.length > rowCount ? undefined : ops;
}

function windowRows(list: MemberList, [first, last]: ListRange): StampedRow[] {
  return list.items(first, last).map((item) => {
    const json = JSON.stringify(item);
    const key = 'group' in item ? `group:${item.group.id}` : `member:${item.member.user?.id ?? json}`;
    // The length beside the hash: a changed row must not look unchanged, and a stamp is all that is kept.
    return { key, stamp: fingerprint(json) * 0x10000 + (json.length & 0xffff), item };
  });
}

/** Group headers stay put when a member changes group: the member's row is the one that moves. */
const isGroupHeader = (row: ListRow): boolean => row.key.startsWith('group:');

const keyAndStamp = ({ key, stamp }: ListRow): ListRow => ({ key, stamp });

const countsOf = (list: MemberList): string => JSON.stringify([list.memberCount, list.onlineCount, list.groups]);

/** FNV-1a over the UTF-16 units: cheap, and enough to tell a row's versions apart. */
function fingerprint(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
