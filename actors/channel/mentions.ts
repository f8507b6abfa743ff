import { ValidationError } from '../../src/domain/errors.js';

/** What a message's content mentions, before allowed_mentions and permissions are applied. */
export interface ParsedMentions {
  readonly userIds: readonly string[];
  readonly roleIds: readonly string[];
  /** The content contains @everyone or @here. */
  readonly everyone: boolean;
}

/** The allowed_mentions object of a message body. */
export interface AllowedMentions {
  readonly parse?: readonly string[];
  readonly users?: readonly string[];
  readonly roles?: readonly string[];
  readonly replied_user?: boolean;
}

/** The mentions a message ends up with. */
export interface ResolvedMentions {
  readonly userIds: string[];
  readonly roleIds: string[];
  readonly everyone: boolean;
}

/** Discord caps the users and roles one message may mention. */
const MAX_MENTIONS = 100;

const USER_MENTION = /<@!?(\d{1,20})>/g;
const ROLE_MENTION = /<@&(\d{1,20})>/g;
const EVERYONE_MENTION = /@(?:everyone|here)\b/;

function unique(ids: Iterable<string>): string[] {
  return [...new Set(ids)].slice(0, MAX_MENTIONS);
}

/** Finds `<@id>`, `<@!id>`, `<@&role>`, @everyone and @here in message content. */
export function parseMentions(content: string): ParsedMentions {
  // Most messages mention nobody: without an @ none of the patterns can match, and matchAll copies its pattern
  // and builds an iterator per call (about 1.5 µs a message create).
  if (!content.includes('@')) return { userIds: [], roleIds: [], everyone: false };
  return {
    userIds: unique(Array.from(content.matchAll(USER_MENTION), (match) => match[1] as string)),
    roleIds: unique(Array.from(content.matchAll(ROLE_MENTION), (match) => match[1] as string)),
    everyone: EVERYONE_MENTION.test(content),
  };
}

/** The mention kinds allowed_mentions.parse may name. */
const PARSE_KINDS = new Set(['users', 'roles', 'everyone']);

/**
 * Refuses an allowed_mentions Discord refuses (50035): an unknown `parse` kind, or `parse` naming
 * users (roles) while `users` (`roles`) lists ids; empty lists are fine, as on Discord.
 */
export function checkAllowedMentions(allowed: AllowedMentions | undefined): void {
  const parse = allowed?.parse ?? [];
  parse.forEach((kind, index) => {
    if (!PARSE_KINDS.has(kind)) {
      throw ValidationError.field(
        `allowed_mentions.parse.${index}`,
        'BASE_TYPE_CHOICES',
        'Value must be one of {"roles", "users", "everyone"}.',
      );
    }
  });
  for (const kind of ['users', 'roles'] as const) {
    if (parse.includes(kind) && (allowed?.[kind]?.length ?? 0) > 0) {
      throw ValidationError.field(
        'allowed_mentions',
        'MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE',
        `parse:["${kind}"] and ${kind}: [ids...] are mutually exclusive.`,
      );
    }
  }
}

/** Where a message is sent and what its author may do, as far as mentions are concerned. */
export interface MentionContext {
  /** Role mentions exist only in guilds. */
  readonly inGuild: boolean;
  /** The author has MENTION_EVERYONE (always false in DMs). */
  readonly canMentionEveryone: boolean;
  /** Author of the message replied to, when the message is a reply. */
  readonly repliedUserId?: string;
}

/**
 * Applies allowed_mentions as Discord does: without it every parsed mention counts and a reply
 * mentions the replied-to author; with it, users and roles count only when their kind is in `parse`
 * or their id is listed, @everyone only when `parse` has "everyone", the replied user only when
 * `replied_user` is true. @everyone/@here also needs MENTION_EVERYONE.
 */
export function resolveMentions(
  parsed: ParsedMentions,
  allowed: AllowedMentions | undefined,
  context: MentionContext,
): ResolvedMentions {
  const parse = new Set(allowed === undefined ? ['users', 'roles', 'everyone'] : (allowed.parse ?? []));
  const listedUsers = new Set(allowed?.users ?? []);
  const listedRoles = new Set(allowed?.roles ?? []);
  const users =
    allowed === undefined || parse.has('users') ? parsed.userIds : parsed.userIds.filter((id) => listedUsers.has(id));
  const roles = !context.inGuild
    ? []
    : allowed === undefined || parse.has('roles')
      ? parsed.roleIds
      : parsed.roleIds.filter((id) => listedRoles.has(id));
  const mentionReplied =
    context.repliedUserId !== undefined && (allowed === undefined || allowed.replied_user === true);
  return {
    userIds: unique(mentionReplied ? [...users, context.repliedUserId] : users),
    roleIds: unique(roles),
    everyone: parsed.everyone && parse.has('everyone') && context.canMentionEveryone && context.inGuild,
  };
}
