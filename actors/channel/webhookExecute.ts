import type { ChannelReply, WebhookRequest } from '../../proto/gen/chorus/v1/channel.js';
import { BadRequestError, UnknownEntityError } from '../../src/domain/errors.js';
import type { WebhookRecord } from '../runtime/ports/records.js';
import { holdsMessages } from './channelJson.js';
import { EMPTY_REPLY, jsonReply, type ChannelScope } from './ChannelScope.js';
import { deleteMessage, editMessage } from './messageCommands.js';
import { storeMessage, type CreateBody } from './messageCreate.js';
import type { PublicUser } from './publicUser.js';
import { authorizedWebhook, webhookAccess } from './webhookAccess.js';
import { validWebhookName } from './webhookCommands.js';
import { bodyOf } from '../../src/contract/bodyOf.js';
import { WebhookExecuteSchema } from '../../src/contract/index.js';

/** An execute body: a message create body plus the sender's name (and avatar URL, not shown yet). */
type ExecuteBody = CreateBody & { username?: unknown; avatar_url?: unknown };

/** The author of a webhook's message: the webhook as a bot user, under the sender's name if given. */
function webhookAuthor(webhook: WebhookRecord, username: unknown): PublicUser {
  const name = username === undefined || username === '' ? webhook.name : validWebhookName(username, 'username');
  return { id: webhook.id, username: name, avatar: webhook.avatar, discriminator: '0000', bot: true };
}

/**
 * POST /webhooks/{id}/{token}: a message by the webhook, composed, stored and dispatched as any other
 * (see storeMessage) with the webhook as author and `webhook_id` set; no nonce, no replies. Replies
 * with the message when the request said `?wait=true`, else empty (204).
 */
export async function executeWebhook(scope: ChannelScope, request: WebhookRequest): Promise<ChannelReply> {
  const webhook = await authorizedWebhook(scope, { ...request, caller: undefined });
  if (!holdsMessages(scope.channel.type)) {
    throw new BadRequestError('Cannot send messages in a non-text channel', 50_008);
  }
  const body: ExecuteBody = bodyOf(WebhookExecuteSchema, request.body);
  const { username } = body;
  // Not part of the message: the sender's name and avatar, and what webhooks cannot send (nonce, replies).
  delete body.username;
  delete body.avatar_url;
  delete body.nonce;
  delete body.message_reference;
  const author = webhookAuthor(webhook, username);
  const { json } = await storeMessage(scope, webhookAccess(webhook), body, {
    id: webhook.id,
    nonce: null,
    webhookId: webhook.id,
    load: [],
    snapshot: () => ({ user: author, json: JSON.stringify(author) }),
  });
  return request.wait ? jsonReply(json) : EMPTY_REPLY;
}

/** The webhook (by token) and one message it sent; 404 10008 for any other message. */
async function webhookMessage(scope: ChannelScope, request: WebhookRequest): Promise<WebhookRecord> {
  const webhook = await authorizedWebhook(scope, { ...request, caller: undefined });
  const record = await scope.message(request.messageId);
  if (record.webhook_id !== webhook.id) throw new UnknownEntityError('message');
  return webhook;
}

/** GET /webhooks/{id}/{token}/messages/{message_id}. */
export async function getWebhookMessage(scope: ChannelScope, request: WebhookRequest): Promise<ChannelReply> {
  const webhook = await webhookMessage(scope, request);
  const [json] = await scope.render([await scope.message(request.messageId)], webhook.id);
  return jsonReply(JSON.stringify(json));
}

/** PATCH /webhooks/{id}/{token}/messages/{message_id}: as a message edit by its author; MESSAGE_UPDATE. */
export async function editWebhookMessage(scope: ChannelScope, request: WebhookRequest): Promise<ChannelReply> {
  const webhook = await webhookMessage(scope, request);
  const target = { caller: undefined, messageId: request.messageId, body: request.body };
  return editMessage(scope, target, webhookAccess(webhook));
}

/** DELETE /webhooks/{id}/{token}/messages/{message_id}: as a delete by its author; MESSAGE_DELETE. */
export async function deleteWebhookMessage(scope: ChannelScope, request: WebhookRequest): Promise<ChannelReply> {
  const webhook = await webhookMessage(scope, request);
  const target = { caller: undefined, messageId: request.messageId, body: '' };
  return deleteMessage(scope, target, webhookAccess(webhook));
}
