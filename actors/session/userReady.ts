import type { ReadyShape } from './capabilities.js';
import { mergedMember, mergedPresences, splitMembers, userGuild, type JsonObject } from './userGuild.js';
import { userSettingsProto } from './userSettingsProto.js';
import { parseJson, parseJsonObject } from '../../src/domain/jsonValue.js';

/** What a user account's READY is made of besides the session fields, as the owning actors serialized it. */
export interface UserReadyParts {
  readonly userId: string;
  readonly shape: ReadyShape;
  /** The session's guilds, in READY order. */
  readonly guildIds: readonly string[];
  /** Their GUILD_CREATE payloads. */
  readonly guildJsons: readonly string[];
  /** The user's own member in each, as the Guild serialized it apart ('' or absent: read it from the guild). */
  readonly ownMemberJsons?: readonly string[] | undefined;
  readonly privateChannelsJson: string;
  readonly relationshipsJson: string;
  readonly userSettingsJson: string;
  readonly guildSettingsJson: string;
  /** `{id, last_message_id, mention_count, last_pin_timestamp}` per channel, as the User actor stored them. */
  readonly readStatesJson: string;
  /** READY `presences`: the friends who are not offline, as PRESENCE_UPDATE carries them (none when absent). */
  readonly friendPresencesJson?: string;
}

/** The user-only part of READY, and READY_SUPPLEMENTAL's `d` when the client asked for one. */
export interface UserReady {
  readonly fields: JsonObject;
  readonly supplemental: JsonObject | undefined;
  /** READY's `user_settings` as the User actor serialized it, to splice in (`fields` leaves it out). */
  readonly userSettingsJson: string;
}

interface UserJson extends JsonObject {
  id?: unknown;
}

const objects = (value: unknown): JsonObject[] =>
  Array.isArray(value) ? value.filter((item): item is JsonObject => typeof item === 'object' && item !== null) : [];
/** `{version, partial, entries}` with the VERSIONED_* bit, the bare array (legacy) without it. */
const versioned = (entries: unknown[], on: boolean): unknown =>
  on ? { version: 0, partial: false, entries } : entries;

/** Users by id in first-seen order: READY's top-level `users` (the session user is not one of them). */
class UserList {
  readonly #users = new Map<string, UserJson>();
  constructor(private readonly selfId: string) {}
  add(user: unknown): string | undefined {
    if (typeof user !== 'object' || user === null) return undefined;
    const id = (user as UserJson).id;
    if (typeof id !== 'string') return undefined;
    if (id !== this.selfId && !this.#users.has(id)) this.#users.set(id, user as UserJson);
    return id;
  }
  get all(): UserJson[] {
    return [...this.#users.values()];
  }
}

/**
 * True when this shape leaves every guild object as its Guild actor serialized it (no bit that moves
 * members, voice states or plain fields): READY then splices the guild JSON in rather than parsing
 * and re-serializing tens of kilobytes per guild for every session that identifies.
 */
export function guildsVerbatim(shape: ReadyShape): boolean {
  return !shape.dedupeUsers && !shape.prioritized && !shape.clientStateV2;
}

/**
 * merged_members as READY lists it when the guilds go verbatim (only the user's own member, see userReady)
 * and every Guild sent that member apart; undefined otherwise (it is read from the parsed guilds).
 */
function ownMembers(parts: UserReadyParts): JsonObject[][] | undefined {
  const jsons = parts.ownMemberJsons;
  if (!guildsVerbatim(parts.shape) || jsons?.length !== parts.guildJsons.length) return undefined;
  if (parts.guildIds.length !== jsons.length || jsons.some((json) => json === '')) return undefined;
  return jsons.map((json, index) => [mergedMember(parseJsonObject(json), parts.guildIds[index] ?? '')]);
}

/**
 * READY's user-account fields shaped by the client's capabilities. DEDUPE_USER_OBJECTS adds the id
 * references Discord's client reads (`recipient_ids`, `user_id`) while keeping the embedded objects the
 * web clients read (Jank Client and Spacebar's client send the bit but read `recipients`, `user` and
 * `merged_members[i][0].user`). USER_SETTINGS_PROTO adds `user_settings_proto`; the JSON `user_settings`
 * stays, because Jank Client sends the bit yet reads `user_settings.guild_folders` and `.status`.
 */
export function userReady(parts: UserReadyParts): UserReady {
  const { shape, userId } = parts;
  const users = new UserList(userId);
  const own = ownMembers(parts);
  // Guilds spliced in verbatim with their own members apart need no parse (tens of KB per guild per identify).
  const guilds = own === undefined ? parts.guildJsons.map((json) => parseJson(json) as JsonObject) : [];
  // Other members go to merged_members only with DEDUPE_USER_OBJECTS (in READY or its supplement).
  const members = guilds.map((guild) => splitMembers(guild, userId, shape.dedupeUsers));
  // Prioritized: only the user's own member now; without DEDUPE the guilds carry their members inline.
  const readyMembers =
    own ?? members.map(({ own, others }) => (shape.dedupeUsers && !shape.prioritized ? [...own, ...others] : own));
  for (const list of readyMembers) for (const member of list) users.add(member['user']);

  const privateChannels = objects(parseJson(parts.privateChannelsJson)).map((channel) => {
    const ids = objects(channel['recipients']).map((user) => users.add(user));
    return shape.dedupeUsers ? { ...channel, recipient_ids: ids.filter((id) => id !== undefined) } : channel;
  });
  const relationships = objects(parseJson(parts.relationshipsJson)).map((relationship) => {
    const id = users.add(relationship['user']);
    return shape.dedupeUsers && id !== undefined ? { ...relationship, user_id: id } : relationship;
  });
  // Only guilds READY lists: Jank Client looks each entry's guild up and fails on one it lacks.
  const guildIds = new Set<unknown>(own === undefined ? guilds.map((guild) => guild['id']) : parts.guildIds);
  const guildSettings = objects(parseJson(parts.guildSettingsJson)).filter((entry) => guildIds.has(entry['guild_id']));

  const friends = objects(parseJson(parts.friendPresencesJson ?? '[]'));
  const mergedFriends = friends.map(({ user, ...rest }) => ({ ...rest, user_id: (user as JsonObject)['id'] }));
  const fields: JsonObject = {
    presences: friends,
    // Left out when the guilds go as the Guild actors serialized them (readyPayloads splices them in).
    ...(guildsVerbatim(shape) ? {} : { guilds: guilds.map((guild) => userGuild(guild, shape, 'ready')) }),
    private_channels: privateChannels,
    relationships,
    users: users.all,
    merged_members: readyMembers,
    read_state: versioned(objects(parseJson(parts.readStatesJson)), shape.versionedReadStates),
    user_guild_settings: versioned(guildSettings, shape.versionedGuildSettings),
  };
  // Parsed only for the proto form: READY carries the JSON as it is (see readyPayloads).
  if (shape.settingsProto) {
    fields['user_settings_proto'] = userSettingsProto(parseJson(parts.userSettingsJson) as JsonObject);
  }
  const userSettingsJson = parts.userSettingsJson;
  if (shape.dedupeUsers)
    fields['merged_presences'] = {
      guilds: guilds.map((guild) => mergedPresences(guild, parts.userId)),
      friends: mergedFriends,
    };
  if (!shape.prioritized) return { fields, supplemental: undefined, userSettingsJson };
  const supplemental: JsonObject = {
    guilds: guilds.map((guild) => ({
      id: guild['id'],
      voice_states: guild['voice_states'] ?? [],
      activity_instances: guild['activity_instances'] ?? [],
      embedded_activities: guild['embedded_activities'] ?? [],
    })),
    merged_members: members.map(({ others }) => others),
    merged_presences: { guilds: guilds.map((guild) => mergedPresences(guild, parts.userId)), friends: mergedFriends },
    lazy_private_channels: [],
    disclose: [],
    game_invites: [],
  };
  return { fields, supplemental, userSettingsJson };
}
