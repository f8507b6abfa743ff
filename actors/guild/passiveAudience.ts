import type { DispatchEvent } from '../../proto/gen/chorus/v1/common.js';
import { PASSIVE_SKIPPED_EVENTS } from '../../src/domain/intents.js';
import { isJsonObject, parseJsonObject } from '../../src/domain/jsonValue.js';

/**
 * What the passive-session rule asks of its guild: whether it is large (more members than the large threshold),
 * whether a member is a bot, and whether a member holds one of some roles (role mentions).
 */
export interface GuildPassivity {
  large(): boolean;
  isBot(userId: string): boolean;
  hasAnyRole(userId: string, roleIds: ReadonlySet<string>): boolean;
}

/** Who a message names: its author, the users and roles it mentions, @everyone / @here. */
export interface NamedAudience {
  readonly users: ReadonlySet<string>;
  readonly roles: ReadonlySet<string>;
  readonly everyone: boolean;
}

const NOBODY: NamedAudience = { users: new Set(), roles: new Set(), everyone: false };

const idsOf = (value: unknown, pick: (item: unknown) => unknown): Set<string> =>
  new Set((Array.isArray(value) ? value : []).map(pick).filter((id): id is string => typeof id === 'string'));

/**
 * The people a MESSAGE_CREATE names (a mention must reach the mentioned user, and the author's other clients
 * keep their unread markers right); other events name nobody. Read from the payload the channel serialized.
 */
export function namedBy(event: DispatchEvent): NamedAudience {
  if (event.event !== 'MESSAGE_CREATE') return NOBODY;
  let message: Record<string, unknown>;
  try {
    message = parseJsonObject(event.dataJson);
  } catch {
    return NOBODY;
  }
  const author = message['author'];
  const users = idsOf(message['mentions'], (user) => (isJsonObject(user) ? user['id'] : undefined));
  if (isJsonObject(author) && typeof author['id'] === 'string') users.add(author['id']);
  return { users, roles: idsOf(message['mention_roles'], (id) => id), everyone: message['mention_everyone'] === true };
}

/**
 * The passive-session rule (Discord's approach for large guilds): for the non-stateful channel events
 * (PASSIVE_SKIPPED_EVENTS) in a large guild, a user account's session that is not looking at the guild (no
 * op 14 / 37 since it subscribed) gets the event only when the event names its user. Bots keep every event
 * their intents allow; small guilds and every other event are unchanged. Returns undefined when the rule does
 * not apply to `event` (everyone may get it), else the predicate a passive session's user must pass.
 */
export function passiveAudience(
  event: DispatchEvent,
  guild: GuildPassivity,
): ((userId: string) => boolean) | undefined {
  if (!PASSIVE_SKIPPED_EVENTS.has(event.event) || !guild.large()) return undefined;
  const named = namedBy(event);
  if (named.everyone) return undefined;
  return (userId) =>
    guild.isBot(userId) || named.users.has(userId) || (named.roles.size > 0 && guild.hasAnyRole(userId, named.roles));
}
