import type { Caller } from '../../proto/gen/chorus/v1/common.js';
import type { UserCommand } from '../../proto/gen/chorus/v1/user.js';
import { toAppError } from '../../src/domain/errors.js';
import type { ActorContext } from '../runtime/ActorContext.js';
import { friendPresences } from './friendPresences.js';

/** The parts of a user account's READY that its User actor owns, as JSON. */
export interface UserExtras {
  readonly privateChannelsJson: string;
  readonly relationshipsJson: string;
  readonly userSettingsJson: string;
  /** The per-guild settings the user changed (user_guild_settings entries). */
  readonly guildSettingsJson: string;
  /** Where the user stopped reading each channel (read_state entries). */
  readonly readStatesJson: string;
  /** The friends who are not offline (READY presences, merged_presences.friends). */
  readonly friendPresencesJson: string;
}

/** What a bot's READY carries in their place: nothing. */
export const NO_USER_EXTRAS: UserExtras = {
  privateChannelsJson: '[]',
  relationshipsJson: '[]',
  userSettingsJson: '{}',
  guildSettingsJson: '[]',
  readStatesJson: '[]',
  friendPresencesJson: '[]',
};

const REQUESTS = {
  listDms: (caller: Caller): UserCommand => ({ command: { $case: 'listDms', listDms: { caller } } }),
  getRelationships: (caller: Caller): UserCommand => ({
    command: { $case: 'getRelationships', getRelationships: { caller } },
  }),
  getSettings: (caller: Caller): UserCommand => ({ command: { $case: 'getSettings', getSettings: { caller } } }),
  listGuildSettings: (caller: Caller): UserCommand => ({
    command: { $case: 'listGuildSettings', listGuildSettings: { caller } },
  }),
  listReadStates: (caller: Caller): UserCommand => ({
    command: { $case: 'listReadStates', listReadStates: { caller } },
  }),
};

async function askJson(
  ctx: ActorContext,
  caller: Caller,
  request: keyof typeof REQUESTS,
  fallback: string,
): Promise<string> {
  try {
    const reply = await ctx.ask('user', caller.userId, REQUESTS[request](caller));
    return reply.reply?.$case === 'json' ? reply.reply.json.json : fallback;
  } catch (error) {
    // READY without DMs or settings beats no READY: the client can fetch them over HTTP.
    ctx.log.warn('session_ready_part_failed', { part: request, err: toAppError(error).message });
    return fallback;
  }
}

/** DMs, relationships, settings (global and per guild) and read states of a user account, each falling back to empty. */
export async function userExtras(ctx: ActorContext, caller: Caller): Promise<UserExtras> {
  const [privateChannelsJson, relationshipsJson, userSettingsJson, guildSettingsJson, readStatesJson] =
    await Promise.all([
      askJson(ctx, caller, 'listDms', '[]'),
      askJson(ctx, caller, 'getRelationships', '[]'),
      askJson(ctx, caller, 'getSettings', '{}'),
      askJson(ctx, caller, 'listGuildSettings', '[]'),
      askJson(ctx, caller, 'listReadStates', '[]'),
    ]);
  const friendPresencesJson = await friendPresences(ctx, caller, relationshipsJson);
  return {
    privateChannelsJson,
    relationshipsJson,
    userSettingsJson,
    guildSettingsJson,
    readStatesJson,
    friendPresencesJson,
  };
}
