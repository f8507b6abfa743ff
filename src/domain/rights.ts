/** Instance-level rights (Spacebar's model), stored per user as a bitmask. */
export const Right = {
  OPERATOR: 1n << 0n,
  MANAGE_APPLICATIONS: 1n << 1n,
  MANAGE_GUILDS: 1n << 2n,
  MANAGE_MESSAGES: 1n << 3n,
  MANAGE_RATE_LIMITS: 1n << 4n,
  MANAGE_ROUTING: 1n << 5n,
  MANAGE_TICKETS: 1n << 6n,
  MANAGE_USERS: 1n << 7n,
  ADD_MEMBERS: 1n << 8n,
  BYPASS_RATE_LIMITS: 1n << 9n,
  CREATE_APPLICATIONS: 1n << 10n,
  CREATE_CHANNELS: 1n << 11n,
  CREATE_DMS: 1n << 12n,
  CREATE_DM_GROUPS: 1n << 13n,
  CREATE_GUILDS: 1n << 14n,
  CREATE_INVITES: 1n << 15n,
  CREATE_ROLES: 1n << 16n,
  CREATE_TEMPLATES: 1n << 17n,
  CREATE_WEBHOOKS: 1n << 18n,
  JOIN_GUILDS: 1n << 19n,
  PIN_MESSAGES: 1n << 20n,
  SELF_ADD_REACTIONS: 1n << 21n,
  SELF_DELETE_MESSAGES: 1n << 22n,
  SELF_EDIT_MESSAGES: 1n << 23n,
  SELF_EDIT_NAME: 1n << 24n,
  SEND_MESSAGES: 1n << 25n,
  USE_ACTIVITIES: 1n << 26n,
  USE_VIDEO: 1n << 27n,
  USE_VOICE: 1n << 28n,
  INVITE_USERS: 1n << 29n,
  SELF_DELETE_DISABLE: 1n << 30n,
  DEBTABLE: 1n << 31n,
  CREDITABLE: 1n << 32n,
  KICK_BAN_MEMBERS: 1n << 33n,
  SELF_LEAVE_GROUPS: 1n << 34n,
  PRESENCE: 1n << 35n,
  SELF_ADD_DISCOVERABLE: 1n << 36n,
  MANAGE_GUILD_DIRECTORY: 1n << 37n,
  POGGERS: 1n << 38n,
  USE_ACHIEVEMENTS: 1n << 39n,
  INITIATE_INTERACTIONS: 1n << 40n,
  RESPOND_TO_INTERACTIONS: 1n << 41n,
  SEND_BACKDATED_EVENTS: 1n << 42n,
  USE_MASS_INVITES: 1n << 43n,
  ACCEPT_INVITES: 1n << 44n,
  SELF_EDIT_FLAGS: 1n << 45n,
  EDIT_FLAGS: 1n << 46n,
  MANAGE_GROUPS: 1n << 47n,
  VIEW_SERVER_STATS: 1n << 48n,
  RESEND_VERIFICATION_EMAIL: 1n << 49n,
} as const;

/** Name of one instance right. */
export type RightName = keyof typeof Right;

/** Rights a newly registered user gets: everything an ordinary member of an instance does. */
export const DEFAULT_USER_RIGHTS =
  Right.CREATE_APPLICATIONS |
  Right.CREATE_CHANNELS |
  Right.CREATE_DMS |
  Right.CREATE_DM_GROUPS |
  Right.CREATE_GUILDS |
  Right.CREATE_INVITES |
  Right.CREATE_ROLES |
  Right.CREATE_TEMPLATES |
  Right.CREATE_WEBHOOKS |
  Right.JOIN_GUILDS |
  Right.PIN_MESSAGES |
  Right.SELF_ADD_REACTIONS |
  Right.SELF_DELETE_MESSAGES |
  Right.SELF_EDIT_MESSAGES |
  Right.SELF_EDIT_NAME |
  Right.SEND_MESSAGES |
  Right.USE_ACTIVITIES |
  Right.USE_VIDEO |
  Right.USE_VOICE |
  Right.INVITE_USERS |
  Right.KICK_BAN_MEMBERS |
  Right.SELF_LEAVE_GROUPS |
  Right.PRESENCE |
  Right.USE_MASS_INVITES |
  Right.ACCEPT_INVITES |
  Right.SELF_EDIT_FLAGS;

/** True when the mask holds the right, or OPERATOR (which implies every right). */
export function hasRight(rights: bigint, right: bigint): boolean {
  return (rights & Right.OPERATOR) !== 0n || (rights & right) === right;
}

/** The right of a name, case-insensitive (as Spacebar spells them: OPERATOR, CREATE_GUILDS); undefined if none. */
export function rightNamed(name: string): bigint | undefined {
  const upper = name.toUpperCase();
  return Object.hasOwn(Right, upper) ? Right[upper as RightName] : undefined;
}

/** The names of the rights in a mask, in bit order. */
export function rightNames(mask: bigint): RightName[] {
  return (Object.keys(Right) as RightName[]).filter((name) => (mask & Right[name]) !== 0n);
}
