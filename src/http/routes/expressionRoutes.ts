import type { Router } from '@koa/router';
import { expressionKey } from '../../domain/blobKeys.js';
import { stickerIndexKey } from '../../domain/codeIndex.js';
import { UnknownEntityError, ValidationError } from '../../domain/errors.js';
import { emojiImage, uploadKind, type UploadKind } from '../../domain/imageKind.js';
import { Permission } from '../../domain/permissions.js';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { discardBlobs } from '../blobResponses.js';
import { askWithImages, storeExpressionImage } from '../imageUploads.js';
import { requestFiles, type UploadedFile } from '../multipart.js';
import { bodyFor, requireCaller, sendReply, snowflakeParam, validBody } from '../routeKit.js';
import { askGuild, guildRoute } from './guildRouteKit.js';
import { guildProbe, permissionFirst } from './permissionFirst.js';

/** Who may create or edit emojis and stickers: managers, or creators of their own (any one of these). */
const EXPRESSION_MAKERS = Permission.MANAGE_GUILD_EXPRESSIONS | Permission.CREATE_GUILD_EXPRESSIONS;

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

/** DELETE of an emoji or sticker: once the Guild actor has removed it, its image goes too. */
function deleteExpressionRoute(deps: EdgeDeps, folder: 'emojis' | 'stickers', param: string) {
  return async (ctx: EdgeContext): Promise<void> => {
    const caller = await requireCaller(ctx, deps);
    const guildId = snowflakeParam(ctx, 'guild_id');
    const id = snowflakeParam(ctx, param);
    const command = { caller, id, body: '', publicView: false };
    const reply = await askGuild(
      deps,
      guildId,
      folder === 'emojis'
        ? { $case: 'deleteEmoji', deleteEmoji: command }
        : { $case: 'deleteSticker', deleteSticker: command },
    );
    await discardBlobs(deps, [expressionKey(folder, id)]);
    sendReply(ctx, reply);
  };
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
    permissionFirst(guildProbe(deps, EXPRESSION_MAKERS), async (ctx: EdgeContext) => {
      const caller = await requireCaller(ctx, deps);
      const guildId = snowflakeParam(ctx, 'guild_id');
      const { image, ...rest } = validBody(ctx, 'EmojiCreateSchema');
      const { data, animated } = emojiImage(image);
      const stored = await storeExpressionImage(deps, 'emojis', data);
      const body = JSON.stringify(rest);
      const reply = await askWithImages(deps, [stored.key], () =>
        askGuild(deps, guildId, { $case: 'createEmoji', createEmoji: { caller, body, emojiId: stored.id, animated } }),
      );
      sendReply(ctx, reply, 201);
    }),
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
    guildRoute(
      deps,
      (ctx, caller) => ({
        $case: 'updateEmoji',
        updateEmoji: { caller, id: target(ctx), body: bodyFor(ctx, 'EmojiModifySchema'), publicView: false },
      }),
      { needs: EXPRESSION_MAKERS },
    ),
  );
  router.delete('/guilds/:guild_id/emojis/:emoji_id', deleteExpressionRoute(deps, 'emojis', 'emoji_id'));
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
    permissionFirst(guildProbe(deps, EXPRESSION_MAKERS), async (ctx: EdgeContext) => {
      const caller = await requireCaller(ctx, deps);
      const guildId = snowflakeParam(ctx, 'guild_id');
      const body = bodyFor(ctx, 'ModifyGuildStickerSchema');
      const file = stickerFile(ctx);
      const formatType = stickerFormat(file);
      // An unusable format is refused by the actor (400), which also deletes the stored file again.
      const stored = await storeExpressionImage(deps, 'stickers', file.data);
      const reply = await askWithImages(deps, [stored.key], () =>
        askGuild(deps, guildId, {
          $case: 'createSticker',
          createSticker: { caller, body, formatType, stickerId: stored.id },
        }),
      );
      sendReply(ctx, reply, 201);
    }),
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
    guildRoute(
      deps,
      (ctx, caller) => ({
        $case: 'updateSticker',
        updateSticker: { caller, id: target(ctx), body: bodyFor(ctx, 'ModifyGuildStickerSchema'), publicView: false },
      }),
      { needs: EXPRESSION_MAKERS },
    ),
  );
  router.delete('/guilds/:guild_id/stickers/:sticker_id', deleteExpressionRoute(deps, 'stickers', 'sticker_id'));
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
