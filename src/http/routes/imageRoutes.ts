import type { Router } from '@koa/router';
import { expressionKey, hashedImageKey, type HashedImageFolder } from '../../domain/blobKeys.js';
import { RouteNotFoundError } from '../../domain/errors.js';
import { isSnowflake } from '../../domain/snowflake.js';
import { sendBlob } from '../blobResponses.js';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';

/**
 * Extensions clients ask for. The stored original is served whatever the extension (and `?size=` is
 * ignored): Chorus does not transcode, and the Content-Type tells the client what it got.
 */
const HASHED_FILE = /^((?:a_)?[0-9a-f]{32})\.(?:png|jpe?g|webp|gif)$/;
/** Emojis and stickers are named by id; `.json` is a Lottie sticker's extension. */
const ID_FILE = /^(\d+)\.(?:png|jpe?g|webp|gif|json)$/;

const HASHED_FOLDERS: readonly HashedImageFolder[] = [
  'avatars',
  'banners',
  'icons',
  'splashes',
  'discovery-splashes',
  'app-icons',
  'role-icons',
];

/** Serves the blob under `key`, or answers 404 (a key the path could not name is never looked up). */
async function serve(ctx: EdgeContext, deps: EdgeDeps, key: string | undefined): Promise<void> {
  const blob = key === undefined ? undefined : await deps.blobs.get(key);
  if (blob === undefined) throw new RouteNotFoundError();
  sendBlob(ctx, blob);
}

/**
 * Image CDN paths, at the root as on Discord's CDN (clients build them from a hash or an id):
 * `/avatars/{user_id}/{hash}.png`, `/icons/{guild_id}/{hash}.png`, `/emojis/{id}.png`, `/stickers/{id}.png`, ...
 * No token is asked, as on Discord's CDN: the URL is the capability.
 */
export function imageRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  for (const folder of HASHED_FOLDERS) {
    router.get(`/${folder}/:owner_id/:file`, async (ctx) => {
      const { owner_id: ownerId, file } = ctx.params;
      const hash = HASHED_FILE.exec(file ?? '')?.[1];
      const valid = isSnowflake(ownerId) && hash !== undefined;
      await serve(ctx, deps, valid ? hashedImageKey(folder, ownerId, hash) : undefined);
    });
  }
  for (const folder of ['emojis', 'stickers'] as const) {
    router.get(`/${folder}/:file`, async (ctx) => {
      const id = ID_FILE.exec(ctx.params['file'] ?? '')?.[1];
      await serve(ctx, deps, id !== undefined && isSnowflake(id) ? expressionKey(folder, id) : undefined);
    });
  }
}
