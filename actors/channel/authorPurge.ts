import type { ChannelReply, PurgeAuthor } from '../../proto/gen/chorus/v1/channel.js';
import { deleteBlobs } from '../../src/domain/BlobStore.js';
import type { MessageRecord } from '../runtime/ports/records.js';
import { withGuildId } from './channelEvents.js';
import { EMPTY_REPLY, type ChannelScope } from './ChannelScope.js';
import { attachmentBlobKeys } from './messageAttachments.js';

/** Messages read a page, and ids a MESSAGE_DELETE_BULK carries (Discord's bulk-delete limit). */
const PAGE = 100;

/** The channel's messages newer than `sinceId` that one of `authors` wrote, reading forward a page at a time. */
async function messagesBy(
  scope: ChannelScope,
  authors: ReadonlySet<string>,
  sinceId: string,
): Promise<MessageRecord[]> {
  const found: MessageRecord[] = [];
  let after = sinceId;
  for (;;) {
    // A page after a cursor holds the `PAGE` messages closest to it, newest first.
    const page = await scope.messages.list(scope.channel.id, { after, limit: PAGE });
    for (const record of page) if (authors.has(record.author_id)) found.push(record);
    const newest = page[0];
    if (page.length < PAGE || newest === undefined) return found;
    after = newest.id;
  }
}

/**
 * purge_author (a Guild's tell after a ban with delete_message_seconds, BAN_MEMBERS checked there): deletes
 * the banned users' messages newer than `since_id` as Discord does, whatever their type, attachments' bytes
 * before the records (as deleteMessage does), and tells viewers with MESSAGE_DELETE_BULK, 100 ids at a time.
 */
export async function purgeAuthor(scope: ChannelScope, request: PurgeAuthor): Promise<ChannelReply> {
  const doomed = await messagesBy(scope, new Set(request.userIds), request.sinceId);
  for (let start = 0; start < doomed.length; start += PAGE) {
    const chunk = doomed.slice(start, start + PAGE);
    const ids = chunk.map((record) => record.id);
    const keys = chunk.flatMap((record) => attachmentBlobKeys(scope.channel.id, record.attachments));
    await deleteBlobs(scope.blobs, keys);
    await scope.messages.delete(scope.channel.id, ids);
    if (chunk.some((record) => record.pinned)) scope.pinCount = undefined; // recounted on the next pin
    scope.emit(
      'MESSAGE_DELETE_BULK',
      JSON.stringify(withGuildId(scope.channel, { ids, channel_id: scope.channel.id })),
    );
  }
  return EMPTY_REPLY;
}
