import type { Caller } from '../../proto/gen/chorus/v1/common.js';
import type { GuildReply } from '../../proto/gen/chorus/v1/guild.js';
import { toAppError } from '../../src/domain/errors.js';
import type { ActorContext } from '../runtime/ActorContext.js';
import { isJsonObject, isOptionalString, parseJson } from '../../src/domain/jsonValue.js';

/** A guild member as the Guild actor serializes it (only the fields the session reads). */
export interface MemberJson {
  user?: { id?: string; username?: string; global_name?: string | null };
  nick?: string | null;
  [key: string]: unknown;
}

/** True when a value from the Guild actor's member JSON has the shape MemberJson declares. */
function isMemberJson(value: unknown): value is MemberJson {
  if (!isJsonObject(value)) return false;
  const { user, nick } = value;
  if (nick !== undefined && nick !== null && typeof nick !== 'string') return false;
  if (user === undefined) return true;
  if (!isJsonObject(user)) return false;
  const name = user['global_name'];
  return (
    isOptionalString(user['id']) && isOptionalString(user['username']) && (name === null || isOptionalString(name))
  );
}

const PAGE = 1000;
/** Pages of members read for one request at most (100k members). */
const MAX_PAGES = 100;

function jsonOf(reply: GuildReply): string {
  if (reply.reply?.$case !== 'json') throw new Error(`guild answered ${reply.reply?.$case ?? 'nothing'}, not json`);
  return reply.reply.json.json;
}

function matches(member: MemberJson, query: string): boolean {
  if (!query) return true;
  const lower = query.toLowerCase();
  return [member.user?.username, member.user?.global_name, member.nick].some(
    (name) => typeof name === 'string' && name.toLowerCase().startsWith(lower),
  );
}

/**
 * Members of a guild, paging the Guild's list_members: up to `max`, those whose username, global name
 * or nick starts with `query` (filtered here too, so the result is right whether or not the guild filters).
 */
export async function listGuildMembers(
  ctx: ActorContext,
  caller: Caller,
  guildId: string,
  query: string,
  max: number,
): Promise<MemberJson[]> {
  const found: MemberJson[] = [];
  let after = '';
  for (let page = 0; page < MAX_PAGES && found.length < max; page += 1) {
    const limit = query ? PAGE : Math.min(PAGE, max - found.length);
    const reply = await ctx.ask('guild', guildId, {
      command: { $case: 'listMembers', listMembers: { caller, limit, after, query } },
    });
    const parsed = parseJson(jsonOf(reply));
    const members = Array.isArray(parsed) ? parsed.filter(isMemberJson) : [];
    for (const member of members) if (found.length < max && matches(member, query)) found.push(member);
    const last = members[members.length - 1]?.user?.id;
    if (members.length < limit || last === undefined) break;
    after = last;
  }
  return found;
}

/** One member by user id, or undefined when the guild does not know it (or refuses). */
export async function getGuildMember(
  ctx: ActorContext,
  caller: Caller,
  guildId: string,
  userId: string,
): Promise<MemberJson | undefined> {
  try {
    const reply = await ctx.ask('guild', guildId, {
      command: { $case: 'getMember', getMember: { caller, userId, body: '' } },
    });
    const member = parseJson(jsonOf(reply));
    return isMemberJson(member) ? member : undefined;
  } catch {
    return undefined;
  }
}

/** A guild a session subscribed to: its GUILD_CREATE payload, and the session user's own member ('' when not apart). */
export interface SubscribedGuild {
  readonly json: string;
  readonly ownMemberJson: string;
}

/**
 * Subscribes a session to a guild's dispatches; the GUILD_CREATE payload, or undefined (logged) when
 * the guild refuses or fails, so one broken guild does not keep a session from READY.
 */
export async function subscribeToGuild(
  ctx: ActorContext,
  guildId: string,
  userId: string,
  intents: string,
): Promise<SubscribedGuild | undefined> {
  try {
    const reply = await ctx.ask('guild', guildId, {
      command: { $case: 'subscribe', subscribe: { sessionId: ctx.key, userId, intents } },
    });
    const answer = reply.reply;
    if (answer?.$case === 'subscribed') {
      return { json: answer.subscribed.guildJson, ownMemberJson: answer.subscribed.ownMemberJson };
    }
    // A peer from before the own member came apart.
    return answer?.$case === 'json' ? { json: answer.json.json, ownMemberJson: '' } : undefined;
  } catch (error) {
    ctx.log.warn('session_subscribe_failed', { guild: guildId, err: toAppError(error).message });
    return undefined;
  }
}

/** A member's presence as the Guild lists it (`user.id`, status, activities, client_status). */
export type PresenceJson = Record<string, unknown>;

/** The presences of a guild's members who are not offline, by user id (empty when the guild refuses). */
export async function listGuildPresences(
  ctx: ActorContext,
  caller: Caller,
  guildId: string,
): Promise<Map<string, PresenceJson>> {
  const out = new Map<string, PresenceJson>();
  try {
    const reply = await ctx.ask('guild', guildId, {
      command: { $case: 'listPresences', listPresences: { caller, targetId: '', withCounts: false } },
    });
    const parsed = parseJson(jsonOf(reply));
    for (const entry of Array.isArray(parsed) ? parsed : []) {
      if (!isJsonObject(entry) || !isJsonObject(entry['user'])) continue;
      const id = entry['user']['id'];
      if (typeof id === 'string') out.set(id, entry);
    }
  } catch (error) {
    ctx.log.warn('session_presences_failed', { guild: guildId, err: toAppError(error).message });
  }
  return out;
}
