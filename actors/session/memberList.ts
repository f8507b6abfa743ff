import type { MemberJson, PresenceJson } from './guildQueries.js';

/** A requested member-list window `[first, last]` (inclusive), as op 14 sends them. */
export type ListRange = readonly [number, number];

/** Largest window a client may ask about (Discord pages the sidebar by 100). */
const MAX_INDEX = 999;

/** The ranges of an op 14 `channels` map: every channel's ranges, clamped, duplicates removed. */
export function requestedRanges(channels: unknown): ListRange[] {
  const seen = new Map<string, ListRange>();
  if (channels && typeof channels === 'object') {
    for (const ranges of Object.values(channels as Record<string, unknown>)) {
      if (!Array.isArray(ranges)) continue;
      for (const range of ranges as unknown[]) {
        if (!Array.isArray(range) || range.length !== 2) continue;
        const [first, last] = range as unknown[];
        if (typeof first !== 'number' || typeof last !== 'number' || first < 0 || last < first) continue;
        const clamped: ListRange = [Math.floor(first), Math.min(MAX_INDEX, Math.floor(last))];
        seen.set(clamped.join(':'), clamped);
      }
    }
  }
  return [...seen.values()];
}

/** The ranges sorted, overlapping ones merged: the windows of rows a session keeps for its diffs. */
export function listWindows(ranges: readonly ListRange[]): ListRange[] {
  const windows: [number, number][] = [];
  for (const [first, last] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const previous = windows[windows.length - 1];
    if (previous && first <= previous[1]) previous[1] = Math.max(previous[1], last);
    else windows.push([first, last]);
  }
  return windows;
}

/** A member-list row as GUILD_MEMBER_LIST_UPDATE items carry it: a group header or a member with its presence. */
export type ListItem =
  { group: { id: string; count: number } } | { member: MemberJson & { presence: Record<string, unknown> } };

/** A guild's member list as a client shows it: its rows, header rows included, and the counts beside it. */
export interface MemberList {
  /** Rows in the whole list (what the client's setGroups makes it). */
  readonly length: number;
  readonly groups: readonly { id: string; count: number }[];
  readonly memberCount: number;
  readonly onlineCount: number;
  /** Rows `first`..`last` (inclusive, cut at the list's end) as items; only rows asked for are built. */
  items(first: number, last: number): ListItem[];
}

/** A row before it is built: a header, or a member with the group it sits in. */
type RowSource =
  { readonly header: string; readonly count: number } | { readonly member: MemberJson; readonly group: string };

/**
 * The list "everyone": an "online" group of the members with a presence (the guild's, from
 * list_presences; the requester is online while it asks) before the "offline" one; empty groups left out.
 */
export function memberList(
  selfId: string,
  members: readonly MemberJson[],
  presences: ReadonlyMap<string, PresenceJson> = new Map(),
): MemberList {
  const presence = (id: string, status: string): Record<string, unknown> => {
    const known = presences.get(id);
    if (status === 'online' && known)
      return {
        user: { id },
        status: known['status'],
        client_status: known['client_status'] ?? {},
        activities: known['activities'] ?? [],
      };
    return { user: { id }, status, client_status: status === 'online' ? { web: 'online' } : {}, activities: [] };
  };
  const isOnline = (member: MemberJson): boolean => member.user?.id === selfId || presences.has(member.user?.id ?? '');
  const online = members.filter(isOnline);
  const offline = members.filter((member) => !isOnline(member));
  const rows: RowSource[] = [];
  const groups: { id: string; count: number }[] = [];
  for (const [id, group] of [
    ['online', online],
    ['offline', offline],
  ] as const) {
    if (group.length === 0) continue;
    groups.push({ id, count: group.length });
    rows.push({ header: id, count: group.length });
    for (const member of group) rows.push({ member, group: id });
  }
  // Copying a member with its presence is the costly part: done for the rows a session shows, not all of them.
  const item = (row: RowSource): ListItem =>
    'header' in row
      ? { group: { id: row.header, count: row.count } }
      : { member: { ...row.member, presence: presence(row.member.user?.id ?? '', row.group) } };
  return {
    length: rows.length,
    groups,
    memberCount: members.length,
    onlineCount: online.length,
    items: (first, last) => rows.slice(first, last + 1).map(item),
  };
}

/** One SYNC op per range, each with the rows of the list that fall in it. */
export function syncOps(list: MemberList, ranges: readonly ListRange[]): unknown[] {
  return ranges.map((range) => ({ op: 'SYNC', range, items: list.items(range[0], range[1]) }));
}

/** The GUILD_MEMBER_LIST_UPDATE `d` for list "everyone": `ops` plus the list's current groups and counts. */
export function listUpdateJson(guildId: string, list: MemberList, ops: readonly unknown[]): string {
  return JSON.stringify({
    guild_id: guildId,
    id: 'everyone',
    member_count: list.memberCount,
    online_count: list.onlineCount,
    groups: list.groups,
    ops,
  });
}

/** GUILD_MEMBER_LIST_UPDATE with one SYNC op per range of the list `memberList` builds. */
export function memberListSync(
  guildId: string,
  selfId: string,
  members: readonly MemberJson[],
  ranges: readonly ListRange[],
  presences: ReadonlyMap<string, PresenceJson> = new Map(),
): string {
  const list = memberList(selfId, members, presences);
  return listUpdateJson(guildId, list, syncOps(list, ranges));
}
