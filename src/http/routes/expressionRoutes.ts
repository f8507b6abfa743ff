import type { Router } from '@koa/router';
import { stickerIndexKey } from '../../domain/codeIndex.js';
import { UnknownEntityError, ValidationError } from '../../domain/errors.js';
import { uploadKind, type UploadKind } from '../../domain/imageKind.js';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { requestFiles, type UploadedFile } from '../multipart.js';
import { bodyFor, requireCaller, sendReply, snowflakeParam } from '../routeKit.js';
import { askGuild, guildRoute } from './guildRouteKit.js';

/** Largest sticker file Discord accepts (512 KiB). */
const MAX_STICKER_BYTES = 512 * 1024;

/** Discord's sticker format_type by file kind: PNG 1, APNG 2, LOTTIE 3, GIF 4 (others are refused). */
const STICKER_FORMATS: Partial<Record<UploadKind, number>> = { png: 1, apng: 2, lottie: 3, gif: 4 };

/** The sticker upload (`file`, as discord.js names it, or the only file part); 50035 naming `file` when unusable. */
function stickerFile(ctx: EdgeContext): UploadedFile {
  const files = requestFiles(ctx.request);
  const file = files.find((f) => f.field === 'file') ?? (files.length === 1 ? files[0] : undefined);
  if (!file || file.data.length === 0)
    throw ValidationError.field('file', 'BASE_TYPE_REQUIRED', 'This field is required');
  if (file.data.length > MAX_STICKER_BYTES) {
    throw ValidationError.field(
      'file',
      'BINARY_TYPE_MAX_SIZE',
      `File cannot be larger than ${MAX_STICKER_BYTES} bytes.`,
    );
  }
  return file;
}

/** The sticker format of an upload, read from its bytes (0 when it is not a sticker format). */
function stickerFormat(file: UploadedFile): number {
  const kind = uploadKind(file.data);
  return (kind && STICKER_FORMATS[kind]) ?? 0;
}

/** Emojis: list, get, create (image as a data URI), modify, delete. */
function emojiRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  const target = (ctx: EdgeContext) => snowflakeParam(ctx, 'emoji_id');
  router.get(
    '/guilds/:guild_id/emojis',
    guildRoute(deps, (_ctx, caller) => ({
      $case: 'listEmojis',
      listEmojis: { caller, targetId: '', withCounts: false },
    })),
  );
  router.post(
    '/guilds/:guild_id/emojis',
    guildRoute(
      deps,
      (ctx, caller) => ({ $case: 'createEmoji', createEmoji: { caller, body: bodyFor(ctx, 'EmojiCreateSchema') } }),
      201,
    ),
  );
  router.get(
    '/guilds/:guild_id/emojis/:emoji_id',
    guildRoute(deps, (ctx, caller) => ({
      $case: 'getEmoji',
      getEmoji: { caller, id: target(ctx), body: '', publicView: false },
    })),
  );
  router.patch(
    '/guilds/:guild_id/emojis/:emoji_id',
    guildRoute(deps, (ctx, caller) => ({
      $case: 'updateEmoji',
      updateEmoji: { caller, id: target(ctx), body: bodyFor(ctx, 'EmojiModifySchema'), publicView: false },
    })),
  );
  router.delete(
    '/guilds/:guild_id/emojis/:emoji_id',
    guildRoute(deps, (ctx, caller) => ({
      $case: 'deleteEmoji',
      deleteEmoji: { caller, id: target(ctx), body: '', publicView: false },
    })),
  );
}

/** Stickers of a guild (create is multipart: the file plus name/tags/description fields), and GET /stickers/{id}. */
function stickerRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  const target = (ctx: EdgeContext) => snowflakeParam(ctx, 'sticker_id');
  router.get(
    '/guilds/:guild_id/stickers',
    guildRoute(deps, (_ctx, caller) => ({
      $case: 'listStickers',
      listStickers: { caller, targetId: '', withCounts: false },
    })),
  );
  router.post(
    '/guilds/:guild_id/stickers',
    guildRoute(
      deps,
      (ctx, caller) => {
        const body = bodyFor(ctx, 'ModifyGuildStickerSchema');
        const formatType = stickerFormat(stickerFile(ctx));
        return { $case: 'createSticker', createSticker: { caller, body, formatType } };
      },
      201,
    ),
  );
  router.get(
    '/guilds/:guild_id/stickers/:sticker_id',
    guildRoute(deps, (ctx, caller) => ({
      $case: 'getSticker',
      getSticker: { caller, id: target(ctx), body: '', publicView: false },
    })),
  );
  router.patch(
    '/guilds/:guild_id/stickers/:sticker_id',
    guildRoute(deps, (ctx, caller) => ({
      $case: 'updateSticker',
      updateSticker: { caller, id: target(ctx), body: bodyFor(ctx, 'ModifyGuildStickerSchema'), publicView: false },
    })),
  );
  router.delete(
    '/guilds/:guild_id/stickers/:sticker_id',
    guildRoute(deps, (ctx, caller) => ({
      $case: 'deleteSticker',
      deleteSticker: { caller, id: target(ctx), body: '', publicView: false },
    })),
  );
  // Any signed-in user may look a guild sticker up by id (the sticker → guild index is in storage).
  router.get('/stickers/:sticker_id', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    const id = target(ctx);
    const guildId = await deps.invites.resolveInvite(stickerIndexKey(id));
    if (!guildId) throw new UnknownEntityError('sticker');
    sendReply(
      ctx,
      await askGuild(deps, guildId, { $case: 'getSticker', getSticker: { caller, id, body: '', publicView: true } }),
    );
  });
}

/** Guild emojis and stickers (owned by the Guild actor). */
export function expressionRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  emojiRoutes(router, deps);
  stickerRoutes(router, deps);
}
