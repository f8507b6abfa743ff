import type { ChannelReply, PurgeAuthor } from '../../proto/gen/chorus/v1/channel.js';
import { deleteBlobs } from '../../src/domain/BlobStore.js';
import type { MessageRecord } from '../runtime/ports/records.js';
import { withGuildId } from './channelEvents.js';
import { EMPTY_REPLY, type ChannelScope } from './ChannelScope.js';
import { attachmentBlobKeys } from './messageAttachments.js';

/** Messages read a page (so at most Discord's 100 ids a MESSAGE_DELETE_BULK). */
const PAGE = 100;

/** Lets the event loop serve other work between two pages of a long scan (SQLite reads are synchronous). */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Deletes one page's doomed messages (attachment bytes first, as deleteMessage does) and tells viewers. */
async function deleteAll(scope: ChannelScope, doomed: readonly MessageRecord[]): Promise<void> {
  const ids = doomed.map((record) => record.id);
  const keys = doomed.flatMap((record) => attachmentBlobKeys(scope.channel.id, record.attachments));
  await deleteBlobs(scope.blobs, keys);
  await scope.messages.delete(scope.channel.id, ids);
  if (doomed.some((record) => record.pinned)) scope.pinCount = undefined; // recounted on the next pin
  scope.emit('MESSAGE_DELETE_BULK', JSON.stringify(withGuildId(scope.channel, { ids, channel_id: scope.channel.id })));
}

/**
 * purge_author (a Guild's tell after a ban with delete_message_seconds, BAN_MEMBERS checked there): deletes
 * the banned users' messages newer than `since_id` as Discord does, whatever their type, reading forward a page
 * at a time and deleting each page's share as it goes, so a long history costs neither memory nor a stalled loop.
 */
export async function purgeAuthor(scope: ChannelScope, request: PurgeAuthor): Promise<ChannelReply> {
  const authors = new Set(request.userIds);
  let after = request.sinceId;
  for (;;) {
    // A page after a cursor holds the `PAGE` messages closest to it, newest first.
    const page = await scope.messages.list(scope.channel.id, { after, limit: PAGE });
    const doomed = page.filter((record) => authors.has(record.author_id));
    if (doomed.length > 0) await deleteAll(scope, doomed);
    const newest = page[0];
    if (page.length < PAGE || newest === undefined) return EMPTY_REPLY;
    after = newest.id;
    await nextTurn();
  }
}
