import type { CreateEmoji, ExpressionTarget, GuildReply, GuildRequest } from '../../proto/gen/chorus/v1/guild.js';
import { BadRequestError, UnknownEntityError, ValidationError } from '../../src/domain/errors.js';
import type { GuildRuntime } from './GuildRuntime.js';
import { callerId, emptyReply, jsonReply } from './GuildRuntime.js';
import type { GuildState } from './GuildState.js';
import {
  checkRoleIds,
  creatorUser,
  requireCreateExpressions,
  managedExpression,
  saveGuildField,
  seesCreators,
} from './expressionAccess.js';
import {
  MAX_EMOJIS_PER_KIND,
  emojiJson,
  emojisOf,
  guildEmojisJson,
  replacedById,
  withoutId,
  type EmojiRecord,
} from './expressionRecords.js';
import { requireMember } from './guildPermissions.js';
import { bodyOf } from '../../src/contract/bodyOf.js';
import { EmojiCreateWithoutImage, EmojiModifySchema } from '../../src/contract/index.js';

/** Emoji names: 2..32 letters, digits or underscores (Discord's rule). */
const EMOJI_NAME = /^[A-Za-z0-9_]{2,32}$/;

function checkedName(name: string): string {
  if (!EMOJI_NAME.test(name)) {
    throw ValidationError.field('name', 'BASE_TYPE_BAD_LENGTH', 'Must be 2 to 32 letters, digits or underscores.');
  }
  return name;
}

/** The emoji with this id (404 10014). */
function requireEmoji(state: GuildState, emojiId: string): EmojiRecord {
  const emoji = emojisOf(state.guild).find((e) => e.id === emojiId);
  if (!emoji) throw new UnknownEntityError('emoji');
  return emoji;
}

/** The REST shape for this caller: with the creator for those who manage expressions. */
function restJson(state: GuildState, actorId: string, emoji: EmojiRecord): Record<string, unknown> {
  return emojiJson(emoji, seesCreators(state, actorId) ? creatorUser(state, emoji.user_id) : undefined);
}

/** Stores the list and tells GUILD_EMOJIS_UPDATE (the full list, as Discord sends it). */
async function saveEmojis(rt: GuildRuntime, emojis: EmojiRecord[]): Promise<void> {
  await saveGuildField(rt, 'emojis', emojis);
  const state = rt.state;
  rt.emit('GUILD_EMOJIS_UPDATE', { guild_id: state.id, emojis: guildEmojisJson(state.guild) });
}

/** list_emojis (members). */
export function listEmojis(rt: GuildRuntime, request: GuildRequest): GuildReply {
  const state = rt.state;
  const actorId = callerId(request.caller);
  requireMember(state, actorId);
  return jsonReply(emojisOf(state.guild).map((emoji) => restJson(state, actorId, emoji)));
}

/** get_emoji (members): 404 10014 for an unknown emoji. */
export function getEmoji(rt: GuildRuntime, target: ExpressionTarget): GuildReply {
  const state = rt.state;
  const actorId = callerId(target.caller);
  requireMember(state, actorId);
  return jsonReply(restJson(state, actorId, requireEmoji(state, target.id)));
}

/**
 * create_emoji (MANAGE_GUILD_EXPRESSIONS or CREATE_GUILD_EXPRESSIONS): EmojiCreateSchema without its
 * image, which the edge checked (emojiImage) and stored under the emoji id it chose; only the record is kept here.
 */
export async function createEmoji(rt: GuildRuntime, command: CreateEmoji): Promise<GuildReply> {
  const state = rt.state;
  const actorId = callerId(command.caller);
  requireCreateExpressions(state, actorId);
  const body = bodyOf(EmojiCreateWithoutImage, command.body);
  const emojis = emojisOf(state.guild);
  const animated = command.animated;
  if (emojis.filter((e) => e.animated === animated).length >= MAX_EMOJIS_PER_KIND) {
    throw new BadRequestError(`Maximum number of emojis reached (${MAX_EMOJIS_PER_KIND})`, 30_008);
  }
  const emoji: EmojiRecord = {
    id: command.emojiId,
    name: checkedName(body.name ?? `emoji_${emojis.length + 1}`),
    roles: checkRoleIds(state, body.roles ?? []),
    require_colons: body.require_colons ?? true,
    animated,
    user_id: actorId,
  };
  await saveEmojis(rt, [...emojis, emoji]);
  return jsonReply(emojiJson(emoji, creatorUser(state, actorId)));
}

/** update_emoji (managers, or the creator with CREATE_GUILD_EXPRESSIONS): EmojiModifySchema. */
export async function updateEmoji(rt: GuildRuntime, target: ExpressionTarget): Promise<GuildReply> {
  const state = rt.state;
  const actorId = callerId(target.caller);
  const current = managedExpression(state, actorId, (s) => requireEmoji(s, target.id));
  const body = bodyOf(EmojiModifySchema, target.body);
  const next: EmojiRecord = {
    ...current,
    name: body.name === undefined ? current.name : checkedName(body.name),
    roles: body.roles === undefined ? current.roles : checkRoleIds(state, body.roles),
  };
  await saveEmojis(rt, replacedById(emojisOf(state.guild), next));
  return jsonReply(restJson(state, actorId, next));
}

/** delete_emoji (as update_emoji): 204. */
export async function deleteEmoji(rt: GuildRuntime, target: ExpressionTarget): Promise<GuildReply> {
  const state = rt.state;
  const current = managedExpression(state, callerId(target.caller), (s) => requireEmoji(s, target.id));
  await saveEmojis(rt, withoutId(emojisOf(state.guild), current.id));
  return emptyReply();
}
