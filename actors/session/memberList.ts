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

/**
 * GUILD_MEMBER_LIST_UPDATE with one SYNC op per range, list id "everyone": an "online" group of the
 * members with a presence (the guild's, from list_presences; the requester is online while it asks)
 * before the "offline" one.
 */
export function memberListSync(
  guildId: string,
  selfId: string,
  members: readonly MemberJson[],
  ranges: readonly ListRange[],
  presences: ReadonlyMap<string, PresenceJson> = new Map(),
): string {
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
  const items: unknown[] = [];
  const groups: { id: string; count: number }[] = [];
  for (const [id, group] of [
    ['online', online],
    ['offline', offline],
  ] as const) {
    if (group.length === 0) continue;
    groups.push({ id, count: group.length });
    items.push({ group: { id, count: group.length } });
    for (const member of group) {
      items.push({ member: { ...member, presence: presence(member.user?.id ?? '', id) } });
    }
  }
  const ops = ranges.map((range) => ({ op: 'SYNC', range, items: items.slice(range[0], range[1] + 1) }));
  return JSON.stringify({
    guild_id: guildId,
    id: 'everyone',
    member_count: members.length,
    online_count: online.length,
    groups,
    ops,
  });
}
