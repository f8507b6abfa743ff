import { BadRequestError } from '../../src/domain/errors.js';
import type { ReactionRecord } from '../runtime/ports/records.js';

/** An emoji as a reaction names it: custom (`name:id`) or unicode. */
export interface EmojiRef {
  /** Snowflake of a custom emoji; null for unicode. */
  readonly id: string | null;
  readonly name: string;
  readonly animated: boolean;
  /** The storage key: `name:id` for custom emoji, the unicode text otherwise. */
  readonly key: string;
}

/** A message's reaction summary, relative to one viewer. */
export interface ReactionJson {
  emoji: { id: string | null; name: string; animated?: true };
  count: number;
  count_details: { burst: number; normal: number };
  me: boolean;
  me_burst: boolean;
  burst_colors: string[];
  burst_count: number;
}

/** Distinct emoji one message may carry (Discord 30010). */
export const MAX_REACTION_EMOJI = 20;

const CUSTOM = /^<?(a:)?([\w~-]{1,32}):(\d{1,20})>?$/;
// Unicode emoji: pictographs, regional indicators, keycaps, with joiners, selectors and modifiers.
const UNICODE_PARTS =
  /^(?:\p{Extended_Pictographic}|\p{Emoji_Component}|\p{Emoji_Modifier}|\u200d|\ufe0f|\u20e3|[#*0-9])+$/u;
const UNICODE_CORE = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20e3/u;

/** Parses the `{emoji}` of a reaction route (already URL-decoded); 400 10014 Unknown Emoji when it is neither form. */
export function parseEmoji(raw: string): EmojiRef {
  const custom = CUSTOM.exec(raw);
  if (custom) {
    const name = custom[2] as string;
    const id = custom[3] as string;
    return { id, name, animated: custom[1] !== undefined, key: `${name}:${id}` };
  }
  if (raw.length > 0 && raw.length <= 64 && UNICODE_PARTS.test(raw) && UNICODE_CORE.test(raw)) {
    return { id: null, name: raw, animated: false, key: raw };
  }
  throw new BadRequestError('Unknown Emoji', 10_014);
}

/** The emoji a storage key names. */
export function emojiOfKey(key: string): EmojiRef {
  const custom = CUSTOM.exec(key);
  if (custom) return { id: custom[3] as string, name: custom[2] as string, animated: false, key };
  return { id: null, name: key, animated: false, key };
}

/** Identity of an emoji: custom emoji are the same whatever name the path gave them. */
export function emojiIdentity(key: string): string {
  const custom = CUSTOM.exec(key);
  return custom ? `id:${custom[3] as string}` : key;
}

/** The `{id, name}` object events and messages carry for an emoji. */
export function emojiJson(emoji: EmojiRef): { id: string | null; name: string; animated?: true } {
  return emoji.animated ? { id: emoji.id, name: emoji.name, animated: true } : { id: emoji.id, name: emoji.name };
}

/**
 * The storage key an added reaction should use: the key already on the message for the same emoji
 * (so `a:1` and `b:1` count together), or the emoji's own key.
 */
export function canonicalKey(emoji: EmojiRef, existing: readonly ReactionRecord[]): string {
  const identity = emojiIdentity(emoji.key);
  return existing.find((reaction) => emojiIdentity(reaction.emoji) === identity)?.emoji ?? emoji.key;
}

/** Reactions of `existing` with the same emoji as `emoji`. */
export function reactionsOf(emoji: EmojiRef, existing: readonly ReactionRecord[]): ReactionRecord[] {
  const identity = emojiIdentity(emoji.key);
  return existing.filter((reaction) => emojiIdentity(reaction.emoji) === identity);
}

/** Distinct emoji on a message. */
export function distinctEmoji(existing: readonly ReactionRecord[]): number {
  return new Set(existing.map((reaction) => emojiIdentity(reaction.emoji))).size;
}

/** Groups reactions (in the order added) into Discord's summary, first-used emoji first; `me` is relative to `viewerId`. */
export function aggregateReactions(records: readonly ReactionRecord[], viewerId: string): ReactionJson[] {
  const byEmoji = new Map<string, ReactionJson>();
  for (const record of records) {
    const identity = emojiIdentity(record.emoji);
    let summary = byEmoji.get(identity);
    if (!summary) {
      summary = {
        emoji: emojiJson(emojiOfKey(record.emoji)),
        count: 0,
        count_details: { burst: 0, normal: 0 },
        me: false,
        me_burst: false,
        burst_colors: [],
        burst_count: 0,
      };
      byEmoji.set(identity, summary);
    }
    summary.count += 1;
    summary.count_details.normal += 1;
    if (record.user_id === viewerId) summary.me = true;
  }
  return [...byEmoji.values()];
}
