/**
 * A dispatch frame built around the already-serialized `d`, so an event serialized once by its
 * owner is never re-serialized per session. Event names are UPPER_SNAKE (nothing to escape).
 */
export function dispatchFrame(event: string, seq: number, dataJson: string): string {
  return `{"op":0,"t":"${event}","s":${seq},"d":${dataJson}}`;
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
