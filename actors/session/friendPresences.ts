import type { Caller } from '../../proto/gen/chorus/v1/common.js';
import { isJsonObject, parseJson } from '../../src/domain/jsonValue.js';
import type { ActorContext } from '../runtime/ActorContext.js';
import { ActorKind } from '../runtime/ActorKind.js';

/** relationships `type` of a friend. */
const FRIEND = 1;
/** Friends whose presence READY asks for at most (one ask each). */
const MAX_FRIENDS = 200;

function parsed(text: string): unknown {
  try {
    return parseJson(text);
  } catch {
    return undefined;
  }
}

/** One friend's presence as their User actor tells it; undefined when offline or out of reach. */
async function presenceOf(ctx: ActorContext, caller: Caller, userId: string): Promise<unknown> {
  try {
    const reply = await ctx.ask(ActorKind.User, userId, {
      command: { $case: 'getPresence', getPresence: { caller } },
    });
    if (reply.reply?.$case !== 'json') return undefined;
    const presence = parsed(reply.reply.json.json);
    if (!isJsonObject(presence) || presence['status'] === 'offline') return undefined;
    return {
      user: { id: userId },
      status: presence['status'],
      activities: presence['activities'] ?? [],
      client_status: presence['client_status'] ?? {},
    };
  } catch {
    return undefined; // READY without one friend's presence beats no READY: the next change brings it
  }
}

/**
 * READY `presences` of a user account: its friends who are not offline, as PRESENCE_UPDATE carries
 * them (no guild_id), from the relationships JSON READY already has. A JSON array.
 */
export async function friendPresences(ctx: ActorContext, caller: Caller, relationshipsJson: string): Promise<string> {
  const relationships = parsed(relationshipsJson);
  const friendIds: string[] = [];
  for (const entry of Array.isArray(relationships) ? relationships : []) {
    if (friendIds.length >= MAX_FRIENDS) break;
    if (isJsonObject(entry) && entry['type'] === FRIEND && typeof entry['id'] === 'string') friendIds.push(entry['id']);
  }
  const presences = await Promise.all(friendIds.map((id) => presenceOf(ctx, caller, id)));
  return JSON.stringify(presences.filter((presence) => presence !== undefined));
}
