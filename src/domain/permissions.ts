/** Discord permission bits (docs/rest.md §6.1), as bigints because they exceed 2^53. */
export const Permission = {
  CREATE_INSTANT_INVITE: 1n << 0n,
  KICK_MEMBERS: 1n << 1n,
  BAN_MEMBERS: 1n << 2n,
  ADMINISTRATOR: 1n << 3n,
  MANAGE_CHANNELS: 1n << 4n,
  MANAGE_GUILD: 1n << 5n,
  ADD_REACTIONS: 1n << 6n,
  VIEW_AUDIT_LOG: 1n << 7n,
  PRIORITY_SPEAKER: 1n << 8n,
  STREAM: 1n << 9n,
  VIEW_CHANNEL: 1n << 10n,
  SEND_MESSAGES: 1n << 11n,
  SEND_TTS_MESSAGES: 1n << 12n,
  MANAGE_MESSAGES: 1n << 13n,
  EMBED_LINKS: 1n << 14n,
  ATTACH_FILES: 1n << 15n,
  READ_MESSAGE_HISTORY: 1n << 16n,
  MENTION_EVERYONE: 1n << 17n,
  USE_EXTERNAL_EMOJIS: 1n << 18n,
  VIEW_GUILD_INSIGHTS: 1n << 19n,
  CONNECT: 1n << 20n,
  SPEAK: 1n << 21n,
  MUTE_MEMBERS: 1n << 22n,
  DEAFEN_MEMBERS: 1n << 23n,
  MOVE_MEMBERS: 1n << 24n,
  USE_VAD: 1n << 25n,
  CHANGE_NICKNAME: 1n << 26n,
  MANAGE_NICKNAMES: 1n << 27n,
  MANAGE_ROLES: 1n << 28n,
  MANAGE_WEBHOOKS: 1n << 29n,
  MANAGE_GUILD_EXPRESSIONS: 1n << 30n,
  USE_APPLICATION_COMMANDS: 1n << 31n,
  REQUEST_TO_SPEAK: 1n << 32n,
  MANAGE_EVENTS: 1n << 33n,
  MANAGE_THREADS: 1n << 34n,
  CREATE_PUBLIC_THREADS: 1n << 35n,
  CREATE_PRIVATE_THREADS: 1n << 36n,
  USE_EXTERNAL_STICKERS: 1n << 37n,
  SEND_MESSAGES_IN_THREADS: 1n << 38n,
  USE_EMBEDDED_ACTIVITIES: 1n << 39n,
  MODERATE_MEMBERS: 1n << 40n,
  VIEW_CREATOR_MONETIZATION_ANALYTICS: 1n << 41n,
  USE_SOUNDBOARD: 1n << 42n,
  CREATE_GUILD_EXPRESSIONS: 1n << 43n,
  CREATE_EVENTS: 1n << 44n,
  USE_EXTERNAL_SOUNDS: 1n << 45n,
  SEND_VOICE_MESSAGES: 1n << 46n,
  SET_VOICE_CHANNEL_STATUS: 1n << 48n,
  SEND_POLLS: 1n << 49n,
  USE_EXTERNAL_APPS: 1n << 50n,
  PIN_MESSAGES: 1n << 51n,
  BYPASS_SLOWMODE: 1n << 52n,
} as const;

/** Name of one permission bit. */
export type PermissionName = keyof typeof Permission;

/** Every defined bit set. */
export const ALL_PERMISSIONS = Object.values(Permission).reduce((all, bit) => all | bit, 0n);

/** What @everyone gets in a new guild (Discord's default set, 0x6_3FD_3F_6_F_E_C_F minus admin bits). */
export const DEFAULT_EVERYONE_PERMISSIONS =
  Permission.CREATE_INSTANT_INVITE |
  Permission.ADD_REACTIONS |
  Permission.STREAM |
  Permission.VIEW_CHANNEL |
  Permission.SEND_MESSAGES |
  Permission.SEND_TTS_MESSAGES |
  Permission.EMBED_LINKS |
  Permission.ATTACH_FILES |
  Permission.READ_MESSAGE_HISTORY |
  Permission.MENTION_EVERYONE |
  Permission.USE_EXTERNAL_EMOJIS |
  Permission.CONNECT |
  Permission.SPEAK |
  Permission.USE_VAD |
  Permission.CHANGE_NICKNAME |
  Permission.USE_APPLICATION_COMMANDS |
  Permission.REQUEST_TO_SPEAK |
  Permission.CREATE_PUBLIC_THREADS |
  Permission.CREATE_PRIVATE_THREADS |
  Permission.USE_EXTERNAL_STICKERS |
  Permission.SEND_MESSAGES_IN_THREADS |
  Permission.USE_EMBEDDED_ACTIVITIES |
  Permission.SEND_VOICE_MESSAGES |
  Permission.SEND_POLLS;

/** Overwrite target kind, as on the wire. */
export const OverwriteType = { role: 0, member: 1 } as const;

/** A channel permission overwrite with parsed masks. */
export interface Overwrite {
  readonly id: string;
  readonly type: number;
  readonly allow: bigint;
  readonly deny: bigint;
}

/** What permission computation needs to know about a guild. */
export interface PermissionGuild {
  readonly id: string;
  readonly ownerId: string;
  /** role id → permission mask; the @everyone role has the guild's id. */
  readonly rolePermissions: ReadonlyMap<string, bigint>;
}

/** Base guild permissions of a member (docs/rest.md §6.2 steps 1–3). */
export function basePermissions(guild: PermissionGuild, userId: string, memberRoleIds: readonly string[]): bigint {
  if (userId === guild.ownerId) return ALL_PERMISSIONS;
  let permissions = guild.rolePermissions.get(guild.id) ?? 0n;
  for (const roleId of memberRoleIds) permissions |= guild.rolePermissions.get(roleId) ?? 0n;
  return (permissions & Permission.ADMINISTRATOR) !== 0n ? ALL_PERMISSIONS : permissions;
}

/**
 * Effective permissions in a channel (docs/rest.md §6.2 steps 4–5): @everyone overwrite, then the
 * union of role overwrites, then the member overwrite; no VIEW_CHANNEL means nothing at all.
 */
export function channelPermissions(
  guild: PermissionGuild,
  userId: string,
  memberRoleIds: readonly string[],
  overwrites: readonly Overwrite[],
): bigint {
  let permissions = basePermissions(guild, userId, memberRoleIds);
  if (permissions === ALL_PERMISSIONS) return ALL_PERMISSIONS;
  const everyone = overwrites.find((o) => o.id === guild.id && o.type === OverwriteType.role);
  if (everyone) permissions = (permissions & ~everyone.deny) | everyone.allow;
  let allow = 0n;
  let deny = 0n;
  for (const overwrite of overwrites) {
    if (overwrite.type === OverwriteType.role && overwrite.id !== guild.id && memberRoleIds.includes(overwrite.id)) {
      allow |= overwrite.allow;
      deny |= overwrite.deny;
    }
  }
  permissions = (permissions & ~deny) | allow;
  const member = overwrites.find((o) => o.id === userId && o.type === OverwriteType.member);
  if (member) permissions = (permissions & ~member.deny) | member.allow;
  if ((permissions & Permission.VIEW_CHANNEL) === 0n) return 0n;
  if ((permissions & Permission.SEND_MESSAGES) === 0n) {
    permissions &= ~(
      Permission.MENTION_EVERYONE |
      Permission.SEND_TTS_MESSAGES |
      Permission.ATTACH_FILES |
      Permission.EMBED_LINKS
    );
  }
  return permissions;
}

/** True when `permissions` holds every bit of `required`. */
export function hasAll(permissions: bigint, required: bigint): boolean {
  return (permissions & required) === required;
}

/** Parses a decimal permission string from the wire; invalid input yields 0n. */
export function parsePermissions(value: string | null | undefined): bigint {
  if (value === null || value === undefined || !/^\d{1,20}$/.test(value)) return 0n;
  return BigInt(value) & ALL_PERMISSIONS;
}
