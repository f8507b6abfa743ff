import type { CreateSticker, ExpressionTarget, GuildReply, GuildRequest } from '../../proto/gen/chorus/v1/guild.js';
import { BadRequestError, UnknownEntityError, ValidationError } from '../../src/domain/errors.js';
import { stickerIndexKey } from '../../src/domain/codeIndex.js';
import type { InviteRecord } from '../runtime/ports/records.js';
import type { GuildRuntime } from './GuildRuntime.js';
import { callerId, emptyReply, jsonReply } from './GuildRuntime.js';
import type { GuildState } from './GuildState.js';
import {
  creatorUser,
  requireCreateExpressions,
  managedExpression,
  saveGuildField,
  seesCreators,
} from './expressionAccess.js';
import {
  MAX_STICKERS,
  guildStickersJson,
  replacedById,
  stickerJson,
  stickersOf,
  withoutId,
  type StickerRecord,
} from './expressionRecords.js';
import { requireMember } from './guildPermissions.js';
import { bodyOf } from '../../src/contract/bodyOf.js';
import { ModifyGuildStickerSchema } from '../../src/contract/index.js';

/** Sticker formats Discord defines: PNG, APNG, LOTTIE, GIF. */
const STICKER_FORMATS: ReadonlySet<number> = new Set([1, 2, 3, 4]);

/** The sticker with this id (404 10060). */
function requireSticker(state: GuildState, stickerId: string): StickerRecord {
  const sticker = stickersOf(state.guild).find((s) => s.id === stickerId);
  if (!sticker) throw new UnknownEntityError('sticker');
  return sticker;
}

function restJson(state: GuildState, actorId: string, sticker: StickerRecord): Record<string, unknown> {
  const user = seesCreators(state, actorId) ? creatorUser(state, sticker.user_id) : undefined;
  return stickerJson(state.id, sticker, user);
}

/** Stores the list and tells GUILD_STICKERS_UPDATE (the full list). */
async function saveStickers(rt: GuildRuntime, stickers: StickerRecord[]): Promise<void> {
  await saveGuildField(rt, 'stickers', stickers);
  const state = rt.state;
  rt.emit('GUILD_STICKERS_UPDATE', { guild_id: state.id, stickers: guildStickersJson(state.guild) });
}

/** The index entry that lets GET /stickers/{id} find this guild (see src/domain/codeIndex.ts). */
function indexEntry(rt: GuildRuntime, sticker: StickerRecord): InviteRecord {
  return {
    code: stickerIndexKey(sticker.id),
    guild_id: rt.state.id,
    channel_id: '',
    inviter_id: sticker.user_id,
    max_age: 0,
    max_uses: 0,
    uses: 0,
    temporary: false,
    created_at: rt.nowIso(),
  };
}

/** list_stickers (members). */
export function listStickers(rt: GuildRuntime, request: GuildRequest): GuildReply {
  const state = rt.state;
  const actorId = callerId(request.caller);
  requireMember(state, actorId);
  return jsonReply(stickersOf(state.guild).map((sticker) => restJson(state, actorId, sticker)));
}

/** get_sticker: members; with public_view (GET /stickers/{id}) any signed-in user, without the creator. */
export function getSticker(rt: GuildRuntime, target: ExpressionTarget): GuildReply {
  const state = rt.state;
  const actorId = callerId(target.caller);
  if (target.publicView && !state.members.has(actorId)) {
    return jsonReply(stickerJson(state.id, requireSticker(state, target.id)));
  }
  requireMember(state, actorId);
  return jsonReply(restJson(state, actorId, requireSticker(state, target.id)));
}

/**
 * create_sticker (MANAGE_GUILD_EXPRESSIONS or CREATE_GUILD_EXPRESSIONS): ModifyGuildStickerSchema plus
 * the uploaded file's format, which the edge read from its bytes and stored under `stickerId` (the actor keeps the record).
 */
export async function createSticker(rt: GuildRuntime, command: CreateSticker): Promise<GuildReply> {
  const state = rt.state;
  const actorId = callerId(command.caller);
  requireCreateExpressions(state, actorId);
  if (!STICKER_FORMATS.has(command.formatType)) {
    throw ValidationError.field('file', 'STICKER_FILE_INVALID', 'The file must be a PNG, APNG, GIF or Lottie JSON.');
  }
  const body = bodyOf(ModifyGuildStickerSchema, command.body);
  const stickers = stickersOf(state.guild);
  if (stickers.length >= MAX_STICKERS) {
    throw new BadRequestError(`Maximum number of stickers reached (${MAX_STICKERS})`, 30_039);
  }
  const sticker: StickerRecord = {
    id: command.stickerId,
    name: body.name,
    tags: body.tags,
    description: body.description ?? null,
    format_type: command.formatType,
    user_id: actorId,
  };
  // Index first: an entry without its sticker answers 404 on lookup, a sticker without its entry would not be found.
  await rt.stores.guilds.saveInvite(indexEntry(rt, sticker));
  await saveStickers(rt, [...stickers, sticker]);
  return jsonReply(stickerJson(state.id, sticker, creatorUser(state, actorId)));
}

/** update_sticker (managers, or the creator with CREATE_GUILD_EXPRESSIONS): ModifyGuildStickerSchema. */
export async function updateSticker(rt: GuildRuntime, target: ExpressionTarget): Promise<GuildReply> {
  const state = rt.state;
  const actorId = callerId(target.caller);
  const current = managedExpression(state, actorId, (s) => requireSticker(s, target.id));
  const body = bodyOf(ModifyGuildStickerSchema, target.body);
  const next: StickerRecord = {
    ...current,
    name: body.name,
    tags: body.tags,
    description: body.description ?? current.description,
  };
  await saveStickers(rt, replacedById(stickersOf(state.guild), next));
  return jsonReply(restJson(state, actorId, next));
}

/** delete_sticker (as update_sticker): 204; its index entry goes too. */
export async function deleteSticker(rt: GuildRuntime, target: ExpressionTarget): Promise<GuildReply> {
  const state = rt.state;
  const current = managedExpression(state, callerId(target.caller), (s) => requireSticker(s, target.id));
  await saveStickers(rt, withoutId(stickersOf(state.guild), current.id));
  await rt.stores.guilds.deleteInvite(stickerIndexKey(current.id));
  return emptyReply();
}
