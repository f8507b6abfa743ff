import type { Router } from '@koa/router';
import type { ChannelCommand, ChannelReply, WebhookRequest } from '../../../proto/gen/chorus/v1/channel.js';
import { componentsFromSender, type ComponentSender } from '../../contract/componentSenders.js';
import { MissingAccessError, MissingPermissionsError, UnknownEntityError } from '../../domain/errors.js';
import { Permission } from '../../domain/permissions.js';
import { askWithUploads, editAttachments, storeUploads } from '../attachmentUploads.js';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { originOf } from '../publicOrigin.js';
import { bodyFor, requireCaller, sendJson, sendReply, snowflakeParam, validBody } from '../routeKit.js';
import { askGuild } from './guildRouteKit.js';
import { askChannel, stringQuery } from './messageRouteKit.js';
import { channelProbe, permissionFirst } from './permissionFirst.js';

const EMPTY_REQUEST: WebhookRequest = {
  caller: undefined,
  webhookId: '',
  token: '',
  body: '',
  wait: false,
  messageId: '',
};

/** The webhook object(s) of a reply with `url` added where the token is shown (the edge knows its own URL). */
function withUrls(origin: string, reply: ChannelReply): string | undefined {
  if (reply.reply?.$case !== 'json') return undefined;
  const parsed = JSON.parse(reply.reply.json.json) as Record<string, unknown> | Record<string, unknown>[];
  const add = (webhook: Record<string, unknown>) =>
    typeof webhook['token'] === 'string'
      ? { ...webhook, url: `${origin}/api/webhooks/${String(webhook['id'])}/${webhook['token']}` }
      : webhook;
  return JSON.stringify(Array.isArray(parsed) ? parsed.map(add) : add(parsed));
}

/** Writes a webhook reply (with URLs) or 204. */
function sendWebhooks(ctx: EdgeContext, deps: EdgeDeps, reply: ChannelReply): void {
  const json = withUrls(originOf(ctx, deps), reply);
  if (json === undefined) ctx.status = 204;
  else sendJson(ctx, json);
}

/**
 * The channel of the route's `{webhook_id}`; 404 10015 when there is no such webhook, 401 50027 when the
 * route's `{token}` is wrong (checked before any body is validated: a stranger learns nothing of the schema).
 */
async function webhookChannel(ctx: EdgeContext, deps: EdgeDeps): Promise<{ channelId: string; webhookId: string }> {
  const webhookId = snowflakeParam(ctx, 'webhook_id');
  const channelId = await deps.webhooks.channelOf(webhookId, ctx.params['token']);
  if (channelId === undefined) throw new UnknownEntityError('webhook');
  return { channelId, webhookId };
}

/**
 * Channel webhooks belong to no application here (their `application_id` is null), so their components
 * follow Discord's rule for such webhooks: dropped unless `?with_components=true`, then link buttons only.
 */
function channelWebhookSender(ctx: EdgeContext): ComponentSender {
  return { kind: 'webhook', withComponents: ['true', '1'].includes(stringQuery(ctx, 'with_components')) };
}

/** A webhook command for `/webhooks/{id}[/{token}]...`: by caller (MANAGE_WEBHOOKS) without a token. */
async function askWebhook(
  ctx: EdgeContext,
  deps: EdgeDeps,
  command: (request: WebhookRequest) => NonNullable<ChannelCommand['command']>,
  fields: Partial<WebhookRequest> = {},
): Promise<ChannelReply> {
  const token = ctx.params['token'] ?? '';
  const caller = token === '' ? await requireCaller(ctx, deps) : undefined;
  const { channelId, webhookId } = await webhookChannel(ctx, deps);
  return askChannel(deps, channelId, command({ ...EMPTY_REQUEST, caller, webhookId, token, ...fields }));
}

/**
 * Webhooks: managed by users with MANAGE_WEBHOOKS (channel and guild listings, `/webhooks/{id}`) or by
 * whoever holds the token (`/webhooks/{id}/{token}`), executed by token, with the messages they sent.
 * Each is owned by its Channel actor; the edge finds the channel of a `/webhooks/{id}` by one read.
 */
export function webhookRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  router.post(
    '/channels/:channel_id/webhooks',
    permissionFirst(channelProbe(deps, Permission.MANAGE_WEBHOOKS), async (ctx) => {
      const caller = await requireCaller(ctx, deps);
      const channelId = snowflakeParam(ctx, 'channel_id');
      const body = bodyFor(ctx, 'WebhookCreateSchema');
      const createWebhook = { ...EMPTY_REQUEST, caller, body };
      sendWebhooks(ctx, deps, await askChannel(deps, channelId, { $case: 'createWebhook', createWebhook }));
    }),
  );
  router.get('/channels/:channel_id/webhooks', async (ctx) => {
    const caller = await requireCaller(ctx, deps);
    const listWebhooks = { ...EMPTY_REQUEST, caller };
    const channelId = snowflakeParam(ctx, 'channel_id');
    sendWebhooks(ctx, deps, await askChannel(deps, channelId, { $case: 'listWebhooks', listWebhooks }));
  });
  router.get('/guilds/:guild_id/webhooks', async (ctx) => {
    const caller = await requireCaller(ctx, deps);
    const guildId = snowflakeParam(ctx, 'guild_id');
    const permissions = Permission.MANAGE_WEBHOOKS.toString();
    await askGuild(deps, guildId, {
      $case: 'checkPermission',
      checkPermission: { caller, permissions, channelId: '', any: false },
    });
    const lists = await Promise.all(
      (await deps.webhooks.channelsOfGuild(guildId)).map((channelId) =>
        askChannel(deps, channelId, { $case: 'listWebhooks', listWebhooks: { ...EMPTY_REQUEST, caller } }).then(
          (reply) => JSON.parse(withUrls(originOf(ctx, deps), reply) ?? '[]') as unknown[],
          // A channel whose overwrites deny the caller (or deleted meanwhile) lists nothing.
          (error: unknown) => {
            const hidden = [MissingPermissionsError, MissingAccessError, UnknownEntityError];
            if (hidden.some((type) => error instanceof type)) return [];
            throw error;
          },
        ),
      ),
    );
    sendJson(ctx, JSON.stringify(lists.flat()));
  });
  for (const path of ['/webhooks/:webhook_id', '/webhooks/:webhook_id/:token']) {
    router.get(path, async (ctx) => {
      sendWebhooks(ctx, deps, await askWebhook(ctx, deps, (getWebhook) => ({ $case: 'getWebhook', getWebhook })));
    });
    router.patch(path, async (ctx) => {
      // Built once the webhook (and its token) checked out: only then is the body validated.
      const reply = await askWebhook(ctx, deps, (request) => ({
        $case: 'updateWebhook',
        updateWebhook: { ...request, body: bodyFor(ctx, 'WebhookModifySchema') },
      }));
      sendWebhooks(ctx, deps, reply);
    });
    router.delete(path, async (ctx) => {
      sendReply(ctx, await askWebhook(ctx, deps, (deleteWebhook) => ({ $case: 'deleteWebhook', deleteWebhook })));
    });
  }
  router.post('/webhooks/:webhook_id/:token', async (ctx) => {
    const { channelId } = await webhookChannel(ctx, deps);
    const body = componentsFromSender(validBody(ctx, 'WebhookExecuteSchema'), channelWebhookSender(ctx));
    const uploads = await storeUploads(ctx, deps, channelId, body.attachments);
    const fields = {
      body: JSON.stringify({ ...body, attachments: uploads.attachments }),
      wait: ['true', '1'].includes(stringQuery(ctx, 'wait')),
    };
    const ask = () => askWebhook(ctx, deps, (executeWebhook) => ({ $case: 'executeWebhook', executeWebhook }), fields);
    sendReply(ctx, await askWithUploads(deps, uploads, ask));
  });
  const messagePath = '/webhooks/:webhook_id/:token/messages/:message_id';
  router.get(messagePath, async (ctx) => {
    const messageId = snowflakeParam(ctx, 'message_id');
    const build = (getWebhookMessage: WebhookRequest) => ({ $case: 'getWebhookMessage' as const, getWebhookMessage });
    sendReply(ctx, await askWebhook(ctx, deps, build, { messageId }));
  });
  router.patch(messagePath, async (ctx) => {
    const { channelId } = await webhookChannel(ctx, deps);
    const messageId = snowflakeParam(ctx, 'message_id');
    const body = componentsFromSender(validBody(ctx, 'MessageEditSchema'), channelWebhookSender(ctx));
    const uploads = await storeUploads(ctx, deps, channelId, body.attachments);
    const edited = JSON.stringify({ ...body, attachments: editAttachments(body.attachments, uploads) });
    const build = (editWebhookMessage: WebhookRequest) => ({
      $case: 'editWebhookMessage' as const,
      editWebhookMessage,
    });
    const ask = () => askWebhook(ctx, deps, build, { messageId, body: edited });
    sendReply(ctx, await askWithUploads(deps, uploads, ask));
  });
  router.delete(messagePath, async (ctx) => {
    const messageId = snowflakeParam(ctx, 'message_id');
    const build = (deleteWebhookMessage: WebhookRequest) => ({
      $case: 'deleteWebhookMessage' as const,
      deleteWebhookMessage,
    });
    sendReply(ctx, await askWebhook(ctx, deps, build, { messageId }));
  });
}
