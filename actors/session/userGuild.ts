import { readyShape, type ReadyShape } from './capabilities.js';
import type { Identity } from './sessionRecord.js';
import { parseJsonObject } from '../../src/domain/jsonValue.js';

/** A JSON object as the wire carries it. */
export type JsonObject = Record<string, unknown>;

/**
 * Keys of a gateway guild that stay beside `properties` under CLIENT_STATE_V2 (UD "Gateway Guild"):
 * the lists and per-user extras. Every other key is a plain guild field and moves into `properties`.
 */
const GATEWAY_GUILD_KEYS: ReadonlySet<string> = new Set([
  'id',
  'roles',
  'emojis',
  'stickers',
  'channels',
  'threads',
  'members',
  'presences',
  'voice_states',
  'member_count',
  'joined_at',
  'large',
  'lazy',
  'unavailable',
  'premium_subscription_count',
  'stage_instances',
  'guild_scheduled_events',
  'soundboard_sounds',
  'embedded_activities',
  'activity_instances',
  'application_command_counts',
]);

/** Where a guild object goes: inline in READY, or a GUILD_CREATE for a guild joined afterwards. */
export type GuildPlace = 'ready' | 'live';

/** A member in a guild object, with its user snapshot. */
interface MemberJson extends JsonObject {
  user?: { id?: string };
}

/** The guild's `members` (the Guild actor puts the subscriber's own member first). */
export function guildMembers(guild: JsonObject): MemberJson[] {
  const members = guild['members'];
  return Array.isArray(members) ? (members as MemberJson[]) : [];
}

/**
 * A guild object (the Guild actor's GUILD_CREATE payload) in the shape a user client asked for.
 * CLIENT_STATE_V2: the plain guild fields move into `properties`, and `data_mode: "full"` says nothing
 * was left out for a cache (Chorus always sends the whole guild). In READY with DEDUPE_USER_OBJECTS the
 * members and presences go to `merged_members` / `merged_presences` instead, and with
 * PRIORITIZED_READY_PAYLOAD voice states and activities go to READY_SUPPLEMENTAL.
 */
export function userGuild(guild: JsonObject, shape: ReadyShape, place: GuildPlace): JsonObject {
  let out: JsonObject = { ...guild };
  if (place === 'ready' && shape.dedupeUsers) {
    delete out['members'];
    delete out['presences'];
  }
  if (place === 'ready' && shape.prioritized) {
    delete out['voice_states'];
    delete out['embedded_activities'];
    delete out['activity_instances'];
  }
  if (shape.clientStateV2) {
    const properties: JsonObject = { id: guild['id'] };
    const gateway: JsonObject = {};
    for (const [key, value] of Object.entries(out)) {
      if (GATEWAY_GUILD_KEYS.has(key)) gateway[key] = value;
      else properties[key] = value;
    }
    if ('premium_subscription_count' in guild)
      properties['premium_subscription_count'] = guild['premium_subscription_count'];
    gateway['properties'] = properties;
    gateway['data_mode'] = 'full';
    out = gateway;
  }
  return out;
}

/**
 * One `merged_members` entry: the member with `user_id` (what Discord's client reads) and its `user`,
 * `guild_id` and `id` (what Jank Client and Spacebar's client read: they throw on a member without
 * `user` and index READY's members by `guild_id` and `id`).
 */
export function mergedMember(member: MemberJson, guildId: string): JsonObject {
  const userId = member.user?.id;
  // Copied, then extended: keys added after a spread in one literal take V8's slow path (~4 µs per member).
  const entry: JsonObject = Object.assign({}, member);
  entry['user_id'] = userId;
  entry['guild_id'] = guildId;
  entry['id'] = userId;
  return entry;
}

/**
 * A guild's members split into the session user's own member and the others, as merged_members entries
 * (`withOthers` false: only the own member, when the shape sends no one else's).
 */
export function splitMembers(
  guild: JsonObject,
  userId: string,
  withOthers = true,
): { own: JsonObject[]; others: JsonObject[] } {
  const guildId = String(guild['id']);
  const own: JsonObject[] = [];
  const others: JsonObject[] = [];
  for (const member of guildMembers(guild)) {
    if (member.user?.id === userId) own.push(mergedMember(member, guildId));
    else if (withOthers) others.push(mergedMember(member, guildId));
  }
  return { own, others };
}

/** The GUILD_CREATE for a guild joined after READY: a user session gets the guild shape its READY had. */
export function guildCreateJson(identity: Identity, json: string): string {
  if (identity.caller.bot) return json;
  return JSON.stringify(userGuild(parseJsonObject(json), readyShape(identity.capabilities), 'live'));
}

/** One guild's `merged_presences.guilds` entry: its `presences` but the user's own, keyed by `user_id`. */
export function mergedPresences(guild: JsonObject, userId: string): JsonObject[] {
  const presences = guild['presences'];
  if (!Array.isArray(presences)) return [];
  const out: JsonObject[] = [];
  for (const entry of presences as JsonObject[]) {
    const id = (entry['user'] as { id?: unknown } | undefined)?.id;
    if (typeof id !== 'string' || id === userId) continue;
    const rest: JsonObject = { ...entry, user_id: id };
    delete rest['user'];
    delete rest['guild_id'];
    out.push(rest);
  }
  return out;
}
