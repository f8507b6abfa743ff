import type { GuildRecord } from '../runtime/ports/records.js';

/** A custom emoji as the guild record keeps it (GuildRecord.fields.emojis): the wire fields plus its creator. */
export interface EmojiRecord {
  readonly id: string;
  name: string;
  roles: string[];
  readonly require_colons: boolean;
  readonly animated: boolean;
  readonly user_id: string;
}

/** A guild sticker as the guild record keeps it (GuildRecord.fields.stickers). */
export interface StickerRecord {
  readonly id: string;
  name: string;
  tags: string;
  description: string | null;
  /** 1 PNG, 2 APNG, 3 LOTTIE, 4 GIF. */
  readonly format_type: number;
  readonly user_id: string;
}

/** Chorus treats every guild as fully boosted: Discord's top limits (250 static + 250 animated emojis, 60 stickers). */
export const MAX_EMOJIS_PER_KIND = 250;
export const MAX_STICKERS = 60;
/** Largest sticker file Discord accepts. */
export const MAX_STICKER_BYTES = 512 * 1024;

/** Discord sticker type for guild stickers (1 would be a standard sticker of a pack). */
const GUILD_STICKER_TYPE = 2;

/** The guild's emojis (oldest first). */
/** The list with `next` in place of the entry with its id. */
export function replacedById<T extends { readonly id: string }>(list: readonly T[], next: T): T[] {
  return list.map((entry) => (entry.id === next.id ? next : entry));
}

/** The list without the entry with this id. */
export function withoutId<T extends { readonly id: string }>(list: readonly T[], id: string): T[] {
  return list.filter((entry) => entry.id !== id);
}

export function emojisOf(guild: GuildRecord): EmojiRecord[] {
  return (guild.fields['emojis'] as EmojiRecord[] | undefined) ?? [];
}

/** The guild's stickers (oldest first). */
export function stickersOf(guild: GuildRecord): StickerRecord[] {
  return (guild.fields['stickers'] as StickerRecord[] | undefined) ?? [];
}

/** An emoji object; `user` (the creator's public record) only where Discord shows it (REST, to managers). */
export function emojiJson(emoji: EmojiRecord, user?: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: emoji.id,
    name: emoji.name,
    roles: emoji.roles,
    require_colons: emoji.require_colons,
    managed: false,
    animated: emoji.animated,
    available: true,
  };
  if (user) out['user'] = user;
  return out;
}

/** A sticker object of this guild; `user` as for emojis. */
export function stickerJson(
  guildId: string,
  sticker: StickerRecord,
  user?: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: sticker.id,
    name: sticker.name,
    tags: sticker.tags,
    type: GUILD_STICKER_TYPE,
    format_type: sticker.format_type,
    description: sticker.description,
    asset: '',
    available: true,
    guild_id: guildId,
  };
  if (user) out['user'] = user;
  return out;
}

/** The emoji list of the guild object, GUILD_CREATE and GUILD_EMOJIS_UPDATE (no creators). */
export function guildEmojisJson(guild: GuildRecord): Record<string, unknown>[] {
  return emojisOf(guild).map((emoji) => emojiJson(emoji));
}

/** The sticker list of the guild object, GUILD_CREATE and GUILD_STICKERS_UPDATE (no creators). */
export function guildStickersJson(guild: GuildRecord): Record<string, unknown>[] {
  return stickersOf(guild).map((sticker) => stickerJson(guild.id, sticker));
}
