import { ALL_PERMISSIONS, Permission, hasAll, parsePermissions } from './permissions.js';

/** Where a command is used: Discord's interaction context types. */
export const CommandContext = { Guild: 0, BotDm: 1, PrivateChannel: 2 } as const;

/** A permission override's target: Discord's application command permission types. */
export const OverrideType = { Role: 1, User: 2, Channel: 3 } as const;

/** One override of the command permissions v2: allow or deny a role, a user or a channel. */
export interface CommandPermissionOverride {
  readonly id: string;
  readonly type: number;
  readonly permission: boolean;
}

/** The command fields the rules read (as the command object stores them). */
export interface CommandAccessFields {
  readonly default_member_permissions?: unknown;
  readonly dm_permission?: unknown;
  readonly contexts?: unknown;
  readonly guild_id?: unknown;
  readonly nsfw?: unknown;
}

/** Who wants to use a command in a guild channel, with what the guild says of them there. */
export interface GuildCommandUser {
  readonly guildId: string;
  readonly channelId: string;
  readonly userId: string;
  readonly roleIds: readonly string[];
  /** Effective permissions in the channel (ALL_PERMISSIONS for the owner and administrators). */
  readonly permissions: bigint;
  /** Whether the channel is age-restricted (nsfw); undefined when no channel is given (the guild at large). */
  readonly ageRestricted?: boolean;
}

/**
 * The overrides a guild set for one application: those of the command itself and those of the whole
 * application (Discord keys the latter by the application id), each possibly absent.
 */
export interface CommandOverrides {
  readonly command?: readonly CommandPermissionOverride[];
  readonly application?: readonly CommandPermissionOverride[];
}

/** Discord's id for "every channel of the guild" in a channel override: the guild id minus one. */
export function allChannelsId(guildId: string): string {
  return (BigInt(guildId) - 1n).toString();
}

/** The command's `contexts` as numbers, or undefined when it sets none. */
function contextsOf(command: CommandAccessFields): number[] | undefined {
  return Array.isArray(command.contexts) ? command.contexts.map(Number) : undefined;
}

/** True when the command may be used in a guild at all (its contexts include GUILD, or it sets none). */
export function usableInGuilds(command: CommandAccessFields): boolean {
  return contextsOf(command)?.includes(CommandContext.Guild) ?? true;
}

/**
 * True when the command may be used in a DM with its application's bot: a global command whose contexts
 * include BOT_DM, or, when it sets no contexts, whose dm_permission is not false. Guild commands never are, nor
 * age-restricted ones (Discord shows those in DMs to age-verified users only, which Chorus does not model).
 */
export function usableInBotDm(command: CommandAccessFields): boolean {
  if (typeof command.guild_id === 'string' || command.nsfw === true) return false;
  const contexts = contextsOf(command);
  return contexts === undefined ? command.dm_permission !== false : contexts.includes(CommandContext.BotDm);
}

/**
 * The channel verdict of one level (command or application): its override for this channel, else its
 * "all channels" override; undefined when it has neither.
 */
function channelVerdict(overrides: readonly CommandPermissionOverride[], who: GuildCommandUser): boolean | undefined {
  const channels = overrides.filter((override) => override.type === OverrideType.Channel);
  const all = allChannelsId(who.guildId);
  return (
    channels.find((override) => override.id === who.channelId)?.permission ??
    channels.find((override) => override.id === all)?.permission
  );
}

/**
 * The member verdict of one level: the user's own override, else (when any of their roles has one) allowed
 * if one of them allows, else the @everyone override (id = guild id); undefined when none applies.
 */
function memberVerdict(overrides: readonly CommandPermissionOverride[], who: GuildCommandUser): boolean | undefined {
  const user = overrides.find((override) => override.type === OverrideType.User && override.id === who.userId);
  if (user) return user.permission;
  const roles = overrides.filter((override) => override.type === OverrideType.Role);
  const held = roles.filter((override) => who.roleIds.includes(override.id));
  if (held.length > 0) return held.some((override) => override.permission);
  return roles.find((override) => override.id === who.guildId)?.permission;
}

/**
 * Whether `who` may use the command in their channel of the guild, by Discord's command permissions v2:
 * the member needs USE_APPLICATION_COMMANDS there and the command must allow guilds (contexts), and an
 * age-restricted (nsfw) command an age-restricted channel; a channel
 * override (the command's, else the application's) that denies wins; then the most specific member
 * override (user, roles, @everyone; the command's before the application's) decides; without any, the
 * command's default_member_permissions does: null lets everyone in, "0" administrators only, other bits
 * must all be held (the owner and administrators hold every bit).
 */
export function mayUseGuildCommand(
  command: CommandAccessFields,
  overrides: CommandOverrides,
  who: GuildCommandUser,
): boolean {
  const admin = who.permissions === ALL_PERMISSIONS;
  if (!usableInGuilds(command) || !hasAll(who.permissions, Permission.USE_APPLICATION_COMMANDS)) return false;
  if (command.nsfw === true && who.ageRestricted === false) return false;
  const commandLevel = overrides.command ?? [];
  const appLevel = overrides.application ?? [];
  const channel = channelVerdict(commandLevel, who) ?? channelVerdict(appLevel, who);
  if (channel === false) return false;
  const member = memberVerdict(commandLevel, who) ?? memberVerdict(appLevel, who);
  if (member !== undefined) return member;
  const defaults = command.default_member_permissions;
  if (defaults === null || defaults === undefined) return true;
  if (typeof defaults !== 'string' && typeof defaults !== 'number') return admin; // unreadable: the safe side
  const required = parsePermissions(String(defaults));
  return required === 0n ? admin : hasAll(who.permissions, required);
}
