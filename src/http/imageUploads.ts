import { expressionKey, hashedImageKey, type HashedImageFolder } from '../domain/blobKeys.js';
import { decodeImage, imageContentType } from '../domain/imageHash.js';
import { discardBlobs, isRefusal } from './blobResponses.js';
import type { EdgeDeps } from './EdgeDeps.js';

/** Which CDN folder each image field of a body is served from (`{ avatar: 'avatars' }`). */
export type ImageFields = Readonly<Record<string, HashedImageFolder>>;

/** A body ready for the actor (each image a hash, not bytes) and the blob keys this request created. */
export interface StoredImages {
  readonly body: string;
  readonly created: readonly string[];
}

/**
 * Stores the data-URI images in the `fields` of a validated body under `<folder>/<ownerId>/<hash>` and
 * puts each hash in its place (the actor's imageHash keeps a hash as is), so the actor never carries the
 * bytes. Keys are content-addressed: a retry rewrites nothing. A key that already held the image (the same
 * picture set again) is left out of `created`, so a refusal never deletes an image that may be in use.
 */
export async function storeImages(
  deps: EdgeDeps,
  body: object,
  ownerId: string,
  fields: ImageFields,
): Promise<StoredImages> {
  const next: Record<string, unknown> = { ...body };
  const images = Object.entries(fields).flatMap(([field, folder]) => {
    const value = next[field];
    const image = typeof value === 'string' ? decodeImage(field, value) : undefined;
    if (image === undefined) return [];
    next[field] = image.hash;
    return [{ key: hashedImageKey(folder, ownerId, image.hash), data: image.data }];
  });
  const created: string[] = [];
  try {
    for (const { key, data } of images) {
      if ((await deps.blobs.get(key)) !== undefined) continue;
      await deps.blobs.put(key, data, imageContentType(data));
      created.push(key);
    }
  } catch (thrown) {
    await discardBlobs(deps, created);
    throw thrown;
  }
  return { body: JSON.stringify(next), created };
}

/** Stores an emoji or sticker image under a fresh id before the actor is asked to create it; resolves to the id. */
export async function storeExpressionImage(
  deps: EdgeDeps,
  folder: 'emojis' | 'stickers',
  data: Buffer,
): Promise<{ readonly id: string; readonly key: string }> {
  const id = deps.ids.next();
  const key = expressionKey(folder, id);
  await deps.blobs.put(key, data, imageContentType(data));
  return { id, key };
}

/**
 * Asks an actor about a change whose images this request stored: a refusal (400/403/404/429) deletes
 * them; a timeout or an outage keeps them, as the change may have been made.
 */
export async function askWithImages<R>(deps: EdgeDeps, created: readonly string[], ask: () => Promise<R>): Promise<R> {
  try {
    return await ask();
  } catch (thrown) {
    if (isRefusal(thrown)) await discardBlobs(deps, created);
    throw thrown;
  }
}
