import type { MemberRecord } from '../runtime/ports/records.js';
import type { GuildState } from './GuildState.js';
import { presenceJson, type PublicPresence } from './guildPresences.js';
import { channelJson, guildJson, memberJson, type JsonObject } from './guildJson.js';
import { canView } from './guildPermissions.js';
import { listVoiceStates } from './guildVoice.js';

/** How much of the guild one subscriber's GUILD_CREATE lists besides the guild itself. */
export interface GuildCreateCut {
  /** Members listed after the subscriber's own, in the guild's order (0: their own alone, as a lazy guild). */
  readonly otherMembers: number;
  /** Also list the members connected to voice (after those), as Discord does for bots without GUILD_PRESENCES. */
  readonly voiceMembers: boolean;
  /** `presences`: none, the online members (up to `onlineLimit`), or those of the members listed. */
  readonly presences: 'none' | 'online' | 'listed';
  readonly onlineLimit: number;
  /** `large` as the guild reports it. */
  readonly large: boolean;
}

/** Keys GUILD_CREATE adds to the guild object, in the order they follow it. */
const EXTRA_KEYS = [
  'joined_at',
  'large',
  'unavailable',
  'lazy',
  'member_count',
  'members',
  'channels',
  'threads',
  'presences',
  'voice_states',
  'stage_instances',
  'guild_scheduled_events',
  'soundboard_sounds',
  'embedded_activities',
  'application_command_counts',
] as const;

const TAIL =
  ',"stage_instances":[],"guild_scheduled_events":[],"soundboard_sounds":[],"embedded_activities":[],' +
  '"application_command_counts":{}}';

/**
 * The members a subscriber's GUILD_CREATE lists: their own first, then up to `otherMembers` more in the guild's
 * order, then (with `voiceMembers`) those connected to voice not listed yet.
 */
export function listedMembers(state: GuildState, self: MemberRecord, cut: GuildCreateCut): MemberRecord[] {
  const members = [self];
  for (const member of state.members.values()) {
    if (members.length > cut.otherMembers) break;
    if (member.user_id !== self.user_id) members.push(member);
  }
  if (!cut.voiceMembers || state.voiceStates.size === 0) return members;
  const listed = new Set(members.map((member) => member.user_id));
  for (const userId of state.voiceStates.keys()) {
    const member = state.members.get(userId);
    if (member !== undefined && !listed.has(userId)) members.push(member);
  }
  return members;
}

/** The `presences` entries of one subscriber's GUILD_CREATE. */
export function presencesFor(state: GuildState, listed: readonly MemberRecord[], cut: GuildCreateCut): JsonObject[] {
  if (cut.presences === 'none') return [];
  const out: JsonObject[] = [];
  if (cut.presences === 'listed') {
    for (const member of listed) {
      const presence = state.presences.get(member.user_id);
      if (presence !== undefined) out.push(presenceJson(state.id, member.user_id, presence));
    }
    return out;
  }
  for (const [userId, presence] of onlineEntries(state, cut.onlineLimit)) {
    out.push(presenceJson(state.id, userId, presence));
  }
  return out;
}

/** The first `limit` members not offline, in the order they came online. */
function onlineEntries(state: GuildState, limit: number): [string, PublicPresence][] {
  const out: [string, PublicPresence][] = [];
  for (const entry of state.presences) {
    if (out.length >= limit) break;
    if (state.members.has(entry[0])) out.push(entry);
  }
  return out;
}

const json = (value: unknown): string => JSON.stringify(value);

/**
 * GUILD_CREATE as text from parts serialized once for every subscriber: the guild object, each member, each
 * channel (again when its last message or pin moved) and the online presences (again when one of the first
 * changed). Every part but those is valid until the guild changes: the Guild actor calls `clear` after any
 * command that may change it. The text is the one JSON.stringify gives for guildCreatePayload, byte for byte.
 */
export class GuildCreateText {
  /** The guild object's JSON without its closing brace; null when a guild field shadows a GUILD_CREATE key. */
  #head: string | null | undefined;
  readonly #members = new Map<string, { readonly record: MemberRecord; readonly json: string }>();
  readonly #channels = new Map<string, { readonly key: string; readonly json: string }>();
  #online: { readonly entries: [string, PublicPresence][]; readonly json: string } | undefined;

  /** Forgets every part (the guild may have changed). */
  clear(): void {
    this.#head = undefined;
    this.#members.clear();
    this.#channels.clear();
    this.#online = undefined;
  }

  /** The subscriber's GUILD_CREATE text and their own member's JSON; undefined when the text cannot be cut so. */
  render(state: GuildState, self: MemberRecord, cut: GuildCreateCut): { text: string; own: string } | undefined {
    const head = this.#headOf(state);
    if (head === null) return undefined;
    const listed = listedMembers(state, self, cut);
    const own = this.#member(self);
    const members = listed.map((member) => (member === self ? own : this.#member(member)));
    const channels: string[] = [];
    for (const channel of state.sortedChannels()) {
      if (!canView(state, self.user_id, channel.id)) continue;
      const key = `${channel.last_message_id ?? ''}/${channel.last_pin_timestamp ?? ''}`;
      let cached = this.#channels.get(channel.id);
      if (cached?.key !== key) {
        cached = { key, json: json(channelJson(channel, false)) };
        this.#channels.set(channel.id, cached);
      }
      channels.push(cached.json);
    }
    const presences =
      cut.presences === 'online' ? this.#onlineJson(state, cut.onlineLimit) : json(presencesFor(state, listed, cut));
    const joined = json({ joined_at: self.joined_at }).slice(1, -1); // empty when the member has none
    const text =
      `${head}${joined === '' ? '' : `,${joined}`},"large":${json(cut.large)},"unavailable":false,"lazy":true,` +
      `"member_count":${state.members.size},"members":[${members.join(',')}],"channels":[${channels.join(',')}],` +
      `"threads":[],"presences":${presences},"voice_states":${json(listVoiceStates(state))}${TAIL}`;
    return { text, own };
  }

  #headOf(state: GuildState): string | null {
    if (this.#head !== undefined) return this.#head;
    const guild = guildJson(state);
    const shadowed = EXTRA_KEYS.some((key) => key in guild);
    const text = json(guild);
    // `{}` cannot happen (a guild has an id); the comma joins to the first key GUILD_CREATE adds.
    this.#head = shadowed ? null : text.slice(0, -1);
    return this.#head;
  }

  /** A member's JSON, serialized again when its record was replaced (records change by replacement). */
  #member(member: MemberRecord): string {
    let cached = this.#members.get(member.user_id);
    if (cached?.record !== member) {
      cached = { record: member, json: json(memberJson(member)) };
      this.#members.set(member.user_id, cached);
    }
    return cached.json;
  }

  /** The online presences' JSON, serialized again only when the first `limit` of them are not the same objects. */
  #onlineJson(state: GuildState, limit: number): string {
    const entries = onlineEntries(state, limit);
    const before = this.#online;
    const same =
      before !== undefined &&
      before.entries.length === entries.length &&
      entries.every(([id, presence], index) => {
        const old = before.entries[index];
        return old !== undefined && old[0] === id && old[1] === presence;
      });
    if (same) return before.json;
    const text = json(entries.map(([id, presence]) => presenceJson(state.id, id, presence)));
    this.#online = { entries, json: text };
    return text;
  }
}
