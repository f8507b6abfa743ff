/**
 * Blob keys of everything Chorus serves from its blob store. The edge writes under these keys and the
 * actors that own the records delete under them when a record stops referencing its bytes, so both
 * sides build keys here.
 */

/** The CDN folders of images named by a hash (Discord's paths: `/<folder>/<owner id>/<hash>.<ext>`). */
export type HashedImageFolder =
  'avatars' | 'banners' | 'icons' | 'splashes' | 'discovery-splashes' | 'app-icons' | 'role-icons';

/** The blob key of an attachment; the served URL has the same path after `/attachments/`. */
export function attachmentKey(channelId: string, attachmentId: string, filename: string): string {
  return `attachments/${channelId}/${attachmentId}/${filename}`;
}

/** The blob key of a hashed image; the served path is the same plus an extension. */
export function hashedImageKey(folder: HashedImageFolder, ownerId: string, hash: string): string {
  return `${folder}/${ownerId}/${hash}`;
}

/** The blob key of an emoji or sticker image (`/emojis/<id>.<ext>`, `/stickers/<id>.<ext>`). */
export function expressionKey(folder: 'emojis' | 'stickers', id: string): string {
  return `${folder}/${id}`;
}

/**
 * The key of the image an owner's field held before a change, when the change replaced or cleared it
 * (none when the field held nothing or keeps the same hash). Keys are per owner, so an owner can only
 * ever name its own images, even by setting a field to some other owner's hash.
 */
export function replacedImageKeys(
  folder: HashedImageFolder,
  ownerId: string,
  before: unknown,
  after: unknown,
): string[] {
  return typeof before === 'string' && before !== '' && before !== after
    ? [hashedImageKey(folder, ownerId, before)]
    : [];
}
