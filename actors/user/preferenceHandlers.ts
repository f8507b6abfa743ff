import type {
  GuildSettingsTarget,
  PeerTarget,
  UserBodyRequest,
  UserReply,
  UserRequest,
} from '../../proto/gen/chorus/v1/user.js';
import { UnknownEntityError, ValidationError } from '../../src/domain/errors.js';
import { guildSettingsJson, mergeGuildSettings, mergeSettings, settingsJson } from './userSettings.js';
import { emptyReply, jsonReply, nextRecord, parseLoose, requireSelf, withoutKey, type UserTurn } from './userTurn.js';
import { bodyOf } from '../../src/contract/bodyOf.js';
import { UserGuildSettingsSchema, UserSettingsSchema } from '../../src/contract/index.js';

/** Longest note a user may keep about another (Discord's limit). */
const MAX_NOTE_LENGTH = 256;

/** GET /users/@me/settings. */
export function getSettings(turn: UserTurn, request: UserRequest): UserReply {
  requireSelf(turn, request);
  return jsonReply(settingsJson(turn.user.settings, turn.user.locale));
}

/** PATCH /users/@me/settings: merges the given fields; `locale` also becomes the account's locale. */
export async function updateSettings(turn: UserTurn, request: UserBodyRequest): Promise<UserReply> {
  requireSelf(turn, request);
  const form = bodyOf(UserSettingsSchema, request.body);
  const next = nextRecord(turn.user);
  const { locale, ...rest } = form;
  next.settings = mergeSettings(next.settings, rest);
  if (locale !== undefined) next.locale = locale;
  await turn.commit(next);
  turn.dispatch('USER_SETTINGS_UPDATE', form);
  return jsonReply(settingsJson(next.settings, next.locale));
}

/** GET /users/@me/guilds/{guild_id}/settings ("@me" = DM settings). */
export function getGuildSettings(turn: UserTurn, request: GuildSettingsTarget): UserReply {
  requireSelf(turn, request);
  requireKnownGuild(turn, request.guildId);
  return jsonReply(guildSettingsJson(request.guildId, turn.user.guild_settings[request.guildId]));
}

/** The guild settings the user stored, one entry per guild ("@me", the DM settings, as guild_id null). */
export function listGuildSettings(turn: UserTurn, request: UserRequest): UserReply {
  requireSelf(turn, request);
  const stored = Object.entries(turn.user.guild_settings);
  return jsonReply(stored.map(([guildId, settings]) => guildSettingsJson(guildId, settings)));
}

/** PATCH /users/@me/guilds/{guild_id}/settings: only for guilds the user is in (or "@me"). */
export async function updateGuildSettings(turn: UserTurn, request: GuildSettingsTarget): Promise<UserReply> {
  requireSelf(turn, request);
  requireKnownGuild(turn, request.guildId);
  const form = bodyOf(UserGuildSettingsSchema, request.body);
  const next = nextRecord(turn.user);
  next.guild_settings[request.guildId] = mergeGuildSettings(next.guild_settings[request.guildId], form);
  await turn.commit(next);
  const json = guildSettingsJson(request.guildId, next.guild_settings[request.guildId]);
  turn.dispatch('USER_GUILD_SETTINGS_UPDATE', json);
  return jsonReply(json);
}

/** GET /users/@me/notes/{id}: the note ('' when none); 404 10013 when that user does not exist. */
export async function getNote(turn: UserTurn, request: PeerTarget): Promise<UserReply> {
  requireSelf(turn, request);
  if (!(await turn.stores.users.get(request.userId))) throw new UnknownEntityError('user');
  return jsonReply({
    user_id: turn.user.id,
    note_user_id: request.userId,
    note: turn.user.notes[request.userId] ?? '',
  });
}

/** PUT /users/@me/notes/{id} `{note}`: sets (or with '' / null clears) the note; 204. */
export async function putNote(turn: UserTurn, request: PeerTarget): Promise<UserReply> {
  requireSelf(turn, request);
  const note: unknown = parseLoose(request.body)['note'] ?? null;
  if (note !== null && typeof note !== 'string')
    throw ValidationError.field('note', 'BASE_TYPE_STRING', 'Must be a string.');
  if (typeof note === 'string' && note.length > MAX_NOTE_LENGTH) {
    throw ValidationError.field('note', 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_NOTE_LENGTH} or fewer in length.`);
  }
  if (!(await turn.stores.users.get(request.userId))) throw new UnknownEntityError('user');
  const next = nextRecord(turn.user);
  if (note === null || note === '') next.notes = withoutKey(next.notes, request.userId);
  else next.notes[request.userId] = note;
  await turn.commit(next);
  turn.dispatch('USER_NOTE_UPDATE', { id: request.userId, note: note ?? '' });
  return emptyReply();
}

function requireKnownGuild(turn: UserTurn, guildId: string): void {
  if (guildId !== '@me' && !turn.guildIds.has(guildId)) throw new UnknownEntityError('guild');
}
