/**
 * Gateway intents, in one place and one encoding: Discord's flag values (`1 << bit`, as bots send
 * them in Identify and as DispatchEvent.intent carries them; 0 = not gated). The guild, channel,
 * user and session actors and the gateway edge all read intents through this module.
 */

/** Every intent Discord defines (GatewayIntentBits), by Discord's name. */
export const GatewayIntent = {
  GUILDS: 1 << 0,
  GUILD_MEMBERS: 1 << 1,
  GUILD_MODERATION: 1 << 2,
  GUILD_EXPRESSIONS: 1 << 3,
  GUILD_INTEGRATIONS: 1 << 4,
  GUILD_WEBHOOKS: 1 << 5,
  GUILD_INVITES: 1 << 6,
  GUILD_VOICE_STATES: 1 << 7,
  GUILD_PRESENCES: 1 << 8,
  GUILD_MESSAGES: 1 << 9,
  GUILD_MESSAGE_REACTIONS: 1 << 10,
  GUILD_MESSAGE_TYPING: 1 << 11,
  DIRECT_MESSAGES: 1 << 12,
  DIRECT_MESSAGE_REACTIONS: 1 << 13,
  DIRECT_MESSAGE_TYPING: 1 << 14,
  MESSAGE_CONTENT: 1 << 15,
  GUILD_SCHEDULED_EVENTS: 1 << 16,
  AUTO_MODERATION_CONFIGURATION: 1 << 20,
  AUTO_MODERATION_EXECUTION: 1 << 21,
  GUILD_MESSAGE_POLLS: 1 << 24,
  DIRECT_MESSAGE_POLLS: 1 << 25,
} as const;

export type GatewayIntent = (typeof GatewayIntent)[keyof typeof GatewayIntent];

/** An event no intent gates: every session gets it. */
export const UNGATED = 0;

const { GUILDS, GUILD_MEMBERS, GUILD_MODERATION, GUILD_EXPRESSIONS, GUILD_WEBHOOKS, GUILD_INVITES } = GatewayIntent;
const { GUILD_VOICE_STATES, GUILD_PRESENCES, GUILD_MESSAGES, GUILD_MESSAGE_REACTIONS } = GatewayIntent;
const { GUILD_MESSAGE_TYPING, DIRECT_MESSAGES, DIRECT_MESSAGE_REACTIONS, DIRECT_MESSAGE_TYPING } = GatewayIntent;
const { MESSAGE_CONTENT } = GatewayIntent;

/** Intents a bot must have enabled in its application to ask for (Discord closes 4014 otherwise). */
export const PRIVILEGED_INTENTS = GUILD_PRESENCES | GUILD_MEMBERS | MESSAGE_CONTENT;

/** Every intent bit Discord defines; Identify with any other bit closes 4013. */
export const KNOWN_INTENTS: bigint = Object.values(GatewayIntent).reduce((mask, flag) => mask | BigInt(flag), 0n);

/** The intent an event needs in a guild and in a DM (0 = not gated there). */
export interface EventIntents {
  readonly guild: number;
  readonly dm: number;
}

const inGuilds = (guild: number): EventIntents => ({ guild, dm: UNGATED });
const both = (guild: number, dm: number): EventIntents => ({ guild, dm });

/**
 * The dispatches Chorus gates by intent, each with the intent it needs (Discord's "list of intents"
 * table). Events not listed here (READY, USER_UPDATE, RELATIONSHIP_*, a DM's CHANNEL_* ...) are ungated.
 */
export const EVENT_INTENTS = {
  GUILD_CREATE: inGuilds(GUILDS),
  GUILD_UPDATE: inGuilds(GUILDS),
  GUILD_DELETE: inGuilds(GUILDS),
  GUILD_ROLE_CREATE: inGuilds(GUILDS),
  GUILD_ROLE_UPDATE: inGuilds(GUILDS),
  GUILD_ROLE_DELETE: inGuilds(GUILDS),
  CHANNEL_CREATE: inGuilds(GUILDS),
  CHANNEL_UPDATE: inGuilds(GUILDS),
  CHANNEL_DELETE: inGuilds(GUILDS),
  CHANNEL_PINS_UPDATE: both(GUILDS, DIRECT_MESSAGES),
  GUILD_MEMBER_ADD: inGuilds(GUILD_MEMBERS),
  GUILD_MEMBER_UPDATE: inGuilds(GUILD_MEMBERS),
  GUILD_MEMBER_REMOVE: inGuilds(GUILD_MEMBERS),
  GUILD_BAN_ADD: inGuilds(GUILD_MODERATION),
  GUILD_BAN_REMOVE: inGuilds(GUILD_MODERATION),
  GUILD_EMOJIS_UPDATE: inGuilds(GUILD_EXPRESSIONS),
  GUILD_STICKERS_UPDATE: inGuilds(GUILD_EXPRESSIONS),
  WEBHOOKS_UPDATE: inGuilds(GUILD_WEBHOOKS),
  INVITE_CREATE: inGuilds(GUILD_INVITES),
  INVITE_DELETE: inGuilds(GUILD_INVITES),
  VOICE_STATE_UPDATE: inGuilds(GUILD_VOICE_STATES),
  PRESENCE_UPDATE: inGuilds(GUILD_PRESENCES),
  MESSAGE_CREATE: both(GUILD_MESSAGES, DIRECT_MESSAGES),
  MESSAGE_UPDATE: both(GUILD_MESSAGES, DIRECT_MESSAGES),
  MESSAGE_DELETE: both(GUILD_MESSAGES, DIRECT_MESSAGES),
  MESSAGE_DELETE_BULK: both(GUILD_MESSAGES, DIRECT_MESSAGES),
  MESSAGE_REACTION_ADD: both(GUILD_MESSAGE_REACTIONS, DIRECT_MESSAGE_REACTIONS),
  MESSAGE_REACTION_REMOVE: both(GUILD_MESSAGE_REACTIONS, DIRECT_MESSAGE_REACTIONS),
  MESSAGE_REACTION_REMOVE_ALL: both(GUILD_MESSAGE_REACTIONS, DIRECT_MESSAGE_REACTIONS),
  MESSAGE_REACTION_REMOVE_EMOJI: both(GUILD_MESSAGE_REACTIONS, DIRECT_MESSAGE_REACTIONS),
  TYPING_START: both(GUILD_MESSAGE_TYPING, DIRECT_MESSAGE_TYPING),
} as const satisfies Record<string, EventIntents>;

/**
 * The "non-stateful" channel events: in a large guild a user account's session gets them only while it looks at
 * the guild (op 14 / 37), or when they name its user (GuildFanout); bots get them by intents. Every other guild
 * event (channels, roles, members, the guild) keeps a client's state right, so everyone gets it.
 */
export const PASSIVE_SKIPPED_EVENTS: ReadonlySet<string> = new Set([
  'MESSAGE_CREATE',
  'MESSAGE_UPDATE',
  'MESSAGE_DELETE',
  'MESSAGE_DELETE_BULK',
  'MESSAGE_REACTION_ADD',
  'MESSAGE_REACTION_REMOVE',
  'MESSAGE_REACTION_REMOVE_ALL',
  'MESSAGE_REACTION_REMOVE_EMOJI',
  'TYPING_START',
]);

/** A dispatch that an intent gates. */
export type GatedEvent = keyof typeof EVENT_INTENTS;

/** Where an event happens: a guild (or a guild channel), or a DM / group DM. */
export type EventPlace = keyof EventIntents;

/** The intent `event` needs where it happens, as DispatchEvent.intent carries it (0 = not gated). */
export function intentOf(event: GatedEvent, place: EventPlace): number {
  return EVENT_INTENTS[event][place];
}

/**
 * True when `intents` (a session's Identify mask) holds the intent flag `intent`. A number mask is
 * read arithmetically, so bits above 31 work too.
 */
export function hasIntent(intents: bigint | number, intent: number): boolean {
  if (typeof intents === 'bigint') return (intents & BigInt(intent)) !== 0n;
  return Math.floor(intents / intent) % 2 === 1;
}

/** Whether a dispatch gated by `intent` (0 = not gated) reaches a session that identified with `intents`. */
export function allowsDispatch(intents: bigint | number, intent: number): boolean {
  return intent === UNGATED || hasIntent(intents, intent);
}

/** Whether a session gets messages with their content: users always; bots only with MESSAGE_CONTENT. */
export function seesMessageContent(bot: boolean, intents: bigint | number): boolean {
  return !bot || hasIntent(intents, MESSAGE_CONTENT);
}

/**
 * An event's data as a session of `selfId` gets it: a bot without MESSAGE_CONTENT gets guild
 * messages without their content (see withoutMessageContent); everyone else the data unchanged.
 */
export function dataSeenBy(
  bot: boolean,
  intents: bigint | number,
  selfId: string,
  dispatch: { readonly event: string; readonly dataJson: string },
): string {
  if (seesMessageContent(bot, intents)) return dispatch.dataJson;
  return withoutMessageContent(dispatch.event, dispatch.dataJson, selfId);
}

/** MESSAGE_* events whose content MESSAGE_CONTENT gates for bots. */
const CONTENT_EVENTS = new Set(['MESSAGE_CREATE', 'MESSAGE_UPDATE']);

interface MessageShape {
  guild_id?: string;
  author?: { id?: string };
  mentions?: { id?: string }[];
}

/**
 * The message with content, embeds, attachments, components and poll emptied, as Discord sends it
 * to a bot without MESSAGE_CONTENT; unchanged for DMs, the bot's own messages and mentions of it.
 */
export function withoutMessageContent(event: string, dataJson: string, selfId: string): string {
  if (!CONTENT_EVENTS.has(event)) return dataJson;
  const message = JSON.parse(dataJson) as MessageShape & Record<string, unknown>;
  if (!message.guild_id || message.author?.id === selfId) return dataJson;
  if (message.mentions?.some((user) => user.id === selfId)) return dataJson;
  const redacted: Record<string, unknown> = { ...message, content: '', embeds: [], attachments: [], components: [] };
  delete redacted['poll'];
  return JSON.stringify(redacted);
}
