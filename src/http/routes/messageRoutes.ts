import type { Router } from '@koa/router';
import { askWithUploads, editAttachments, storeUploads } from '../attachmentUploads.js';
import type { Caller } from '../../../proto/gen/chorus/v1/common.js';
import { componentsFromSender, type ComponentSender } from '../../contract/componentSenders.js';
import { Permission } from '../../domain/permissions.js';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { bodyFor, intQuery, requireCaller, sendReply, snowflakeParam, snowflakeQuery, validBody } from '../routeKit.js';
import { askChannel, channelRoute } from './messageRouteKit.js';
import { channelProbe, permissionFirst, type RouteHandler } from './permissionFirst.js';
import { refuseBots } from './userRouteKit.js';

/**
 * Discord's replies may omit message_reference.channel_id (discord.js does): it defaults to the
 * channel posted in, as on Discord. Filled in before validation, since the schema requires it.
 */
function defaultReferenceChannel(ctx: EdgeContext, channelId: string): void {
  const body = (ctx.request as { body?: unknown }).body as { message_reference?: Record<string, unknown> } | undefined;
  const reference = body?.message_reference;
  if (reference && typeof reference === 'object' && reference['channel_id'] === undefined) {
    reference['channel_id'] = channelId;
  }
}

/**
 * The body's JSON text with `attachments` set, as `JSON.stringify({ ...body, attachments })` writes it. A body
 * without its own `attachments` (most messages) gets the key appended to its text: spreading it into a literal
 * with a key added after the spread takes V8's slow clone path, several µs per message POST.
 */
function withAttachments(body: object, attachments: readonly unknown[]): string {
  if (Object.hasOwn(body, 'attachments')) return JSON.stringify({ ...body, attachments });
  const text = JSON.stringify(body);
  const list = JSON.stringify(attachments);
  return text === '{}' ? `{"attachments":${list}}` : `${text.slice(0, -1)},"attachments":${list}}`;
}

/** A bot account speaks for its application (its components are kept); a user account's are dropped. */
function senderOf(caller: Caller): ComponentSender {
  return { kind: caller.bot ? 'application' : 'user' };
}

/** The path of a channel's messages: GET reads a page, POST sends one (both also on the hot path, hotRoutes.ts). */
export const CHANNEL_MESSAGES = '/channels/:channel_id/messages';

/** The handlers of GET and POST CHANNEL_MESSAGES. */
export function channelMessagesRoutes(deps: EdgeDeps): { list: RouteHandler; create: RouteHandler } {
  const list = channelRoute(deps, (ctx, caller) => ({
    $case: 'listMessages',
    listMessages: {
      caller,
      limit: intQuery(ctx, 'limit', 50, 1, 100),
      before: snowflakeQuery(ctx, 'before'),
      after: snowflakeQuery(ctx, 'after'),
      around: snowflakeQuery(ctx, 'around'),
    },
  }));
  // Create and edit store uploaded files first: the actor gets their metadata in `attachments`, which
  // replaces the client's list (see actors/channel/messageAttachments.ts). A refused body costs the
  // channel one more ask (permissionFirst); a valid one none.
  const create = permissionFirst(channelProbe(deps, Permission.SEND_MESSAGES), async (ctx) => {
    const caller = await requireCaller(ctx, deps);
    const channelId = snowflakeParam(ctx, 'channel_id');
    defaultReferenceChannel(ctx, channelId);
    const body = componentsFromSender(validBody(ctx, 'MessageCreateSchema'), senderOf(caller));
    const uploads = await storeUploads(ctx, deps, channelId, body.attachments);
    const command = {
      $case: 'createMessage' as const,
      createMessage: { caller, body: withAttachments(body, uploads.attachments) },
    };
    sendReply(ctx, await askWithUploads(deps, uploads, () => askChannel(deps, channelId, command)));
  });
  return { list, create };
}

/** Messages of a channel: list, create, get, edit, delete, bulk delete, acknowledge; and typing. */
export function messageRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  const { list, create } = channelMessagesRoutes(deps);
  router.get(CHANNEL_MESSAGES, list);
  router.post(CHANNEL_MESSAGES, create);
  for (const path of ['/channels/:channel_id/messages/bulk-delete', '/channels/:channel_id/messages/bulk_delete']) {
    router.post(
      path,
      channelRoute(
        deps,
        (ctx, caller) => ({
          $case: 'bulkDelete',
          bulkDelete: { caller, body: bodyFor(ctx, 'BulkDeleteSchema') },
        }),
        { needs: Permission.MANAGE_MESSAGES },
      ),
    );
  }
  router.get(
    '/channels/:channel_id/messages/:message_id',
    channelRoute(deps, (ctx, caller) => ({
      $case: 'getMessage',
      getMessage: { caller, messageId: snowflakeParam(ctx, 'message_id'), body: '' },
    })),
  );
  // Editing needs authorship, which the actor checks; seeing the channel is the least it takes.
  router.patch(
    '/channels/:channel_id/messages/:message_id',
    permissionFirst(channelProbe(deps, 0n), async (ctx) => {
      const caller = await requireCaller(ctx, deps);
      const channelId = snowflakeParam(ctx, 'channel_id');
      const messageId = snowflakeParam(ctx, 'message_id');
      const body = componentsFromSender(validBody(ctx, 'MessageEditSchema'), senderOf(caller));
      const uploads = await storeUploads(ctx, deps, channelId, body.attachments);
      const edited = JSON.stringify({ ...body, attachments: editAttachments(body.attachments, uploads) });
      const command = { $case: 'editMessage' as const, editMessage: { caller, messageId, body: edited } };
      sendReply(ctx, await askWithUploads(deps, uploads, () => askChannel(deps, channelId, command)));
    }),
  );
  router.delete(
    '/channels/:channel_id/messages/:message_id',
    channelRoute(deps, (ctx, caller) => ({
      $case: 'deleteMessage',
      deleteMessage: { caller, messageId: snowflakeParam(ctx, 'message_id'), body: '' },
    })),
  );
  router.post(
    '/channels/:channel_id/messages/:message_id/crosspost',
    channelRoute(deps, (ctx, caller) => ({
      $case: 'crosspost',
      crosspost: { caller, messageId: snowflakeParam(ctx, 'message_id'), body: '' },
    })),
  );
  router.post(
    '/channels/:channel_id/messages/:message_id/ack',
    channelRoute(
      deps,
      (ctx, caller) => {
        refuseBots(caller); // read states are kept for people only
        const body = validBody(ctx, 'MessageAcknowledgeSchema');
        const messageId = snowflakeParam(ctx, 'message_id');
        return {
          $case: 'acknowledge',
          acknowledge: { caller, body: JSON.stringify({ ...body, message_id: messageId }) },
        };
      },
      { needs: 0n },
    ),
  );
  router.post(
    '/channels/:channel_id/typing',
    channelRoute(deps, (_ctx, caller) => ({ $case: 'typing', typing: { caller, body: '' } })),
  );
}
