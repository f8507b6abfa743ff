import { ActorKind } from '../../../cluster/ActorSystem.js';
import type { Caller } from '../../../proto/gen/chorus/v1/common.js';
import { AppError } from '../../domain/errors.js';
import { compareSnowflakes } from '../../domain/snowflake.js';
import type { EdgeDeps } from '../EdgeDeps.js';
import { askGuild, replyText } from './guildRouteKit.js';

/**
 * Bounds of a search: messages are not indexed, so a search reads the newest messages of each
 * channel the caller can see, through the Channel actors (which check READ_MESSAGE_HISTORY).
 */
export const SEARCH_CHANNELS_MAX = 50;
export const SEARCH_MESSAGES_PER_CHANNEL = 100;
const SEARCH_CONCURRENCY = 8;

/** Channel types that hold messages. */
const MESSAGE_CHANNEL_TYPES: ReadonlySet<number> = new Set([0, 2, 5, 13]);

/** What a guild message search asks for (Discord's query parameters that Chorus honours). */
export interface SearchQuery {
  /** Case-insensitive substring of the content; '' matches every message. */
  readonly content: string;
  readonly authorIds: readonly string[];
  readonly channelIds: readonly string[];
  readonly mentions: readonly string[];
  readonly limit: number;
  readonly offset: number;
  readonly oldestFirst: boolean;
}

interface SearchMessage {
  id: string;
  content?: string;
  author?: { id?: string };
  mentions?: { id?: string }[];
  [key: string]: unknown;
}

function matches(message: SearchMessage, query: SearchQuery, needle: string): boolean {
  if (needle !== '' && !(message.content ?? '').toLowerCase().includes(needle)) return false;
  if (query.authorIds.length > 0 && !query.authorIds.includes(message.author?.id ?? '')) return false;
  if (query.mentions.length > 0) {
    const mentioned = new Set((message.mentions ?? []).map((user) => user.id));
    if (!query.mentions.some((id) => mentioned.has(id))) return false;
  }
  return true;
}

async function recentMessages(deps: EdgeDeps, caller: Caller, channelId: string): Promise<SearchMessage[]> {
  try {
    const reply = await deps.system.ask(ActorKind.Channel, channelId, {
      command: {
        $case: 'listMessages',
        listMessages: { caller, limit: SEARCH_MESSAGES_PER_CHANNEL, before: '', after: '', around: '' },
      },
    });
    return JSON.parse(replyText(reply)) as SearchMessage[];
  } catch (error) {
    // A channel the caller lost access to (or that went away) mid-search has no results.
    if (error instanceof AppError && (error.kind === 'forbidden' || error.kind === 'not_found')) return [];
    throw error;
  }
}

/**
 * GET /guilds/{id}/messages/search: Discord's response shape (`messages` is a list of one-message
 * lists, each hit marked `hit: true`), over at most SEARCH_CHANNELS_MAX channels and their newest
 * SEARCH_MESSAGES_PER_CHANNEL messages each; total_results counts the hits found within that window.
 */
export async function searchGuildMessages(
  deps: EdgeDeps,
  caller: Caller,
  guildId: string,
  query: SearchQuery,
): Promise<Record<string, unknown>> {
  const listed = JSON.parse(
    replyText(
      await askGuild(deps, guildId, {
        $case: 'listChannels',
        listChannels: { caller, targetId: '', withCounts: false },
      }),
    ),
  ) as { id: string; type: number }[];
  const channels = listed
    .filter((c) => MESSAGE_CHANNEL_TYPES.has(c.type))
    .filter((c) => query.channelIds.length === 0 || query.channelIds.includes(c.id))
    .slice(0, SEARCH_CHANNELS_MAX);
  const needle = query.content.toLowerCase();
  const hits: SearchMessage[] = [];
  for (let start = 0; start < channels.length; start += SEARCH_CONCURRENCY) {
    const batch = channels.slice(start, start + SEARCH_CONCURRENCY);
    const pages = await Promise.all(batch.map((channel) => recentMessages(deps, caller, channel.id)));
    for (const page of pages) for (const message of page) if (matches(message, query, needle)) hits.push(message);
  }
  hits.sort((a, b) => (query.oldestFirst ? 1 : -1) * compareSnowflakes(a.id, b.id));
  return {
    total_results: hits.length,
    messages: hits.slice(query.offset, query.offset + query.limit).map((message) => [{ ...message, hit: true }]),
    analytics_id: null,
    doing_deep_historical_index: false,
  };
}
