import { timingSafeEqual } from 'node:crypto';

import type { WebhookRequest } from '../../proto/gen/chorus/v1/channel.js';
import { UnauthorizedError, UnknownEntityError } from '../../src/domain/errors.js';
import { Permission } from '../../src/domain/permissions.js';
import type { WebhookRecord } from '../runtime/ports/records.js';
import { DM_PERMISSIONS, requireGuildChannel, requirePermission, type Access } from './channelAccess.js';
import type { ChannelScope } from './ChannelScope.js';

/**
 * What a webhook may do when it sends or edits: what a DM recipient may (write with files, embeds and
 * TTS), and mention @everyone and roles: on Discord allowed_mentions is the only limit on a webhook's.
 */
const WEBHOOK_PERMISSIONS = DM_PERMISSIONS | Permission.MENTION_EVERYONE;

/** The access a webhook sends and edits its messages with (it authors them: author_id = webhook id). */
export function webhookAccess(webhook: WebhookRecord): Access {
  return { userId: webhook.id, permissions: WEBHOOK_PERMISSIONS, member: false, memberJson: '' };
}

/** True when `given` is the webhook's token; compared in constant time. */
export function tokenMatches(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A webhook of this channel; 404 10015 when it is unknown here. */
export async function ownWebhook(scope: ChannelScope, webhookId: string): Promise<WebhookRecord> {
  const webhook = webhookId === '' ? undefined : await scope.stores.webhooks.get(webhookId);
  if (webhook?.channel_id !== scope.channel.id) throw new UnknownEntityError('webhook');
  return webhook;
}

/** The caller's access requiring MANAGE_WEBHOOKS in this (guild) channel; 403 50013 otherwise. */
export async function manageAccess(scope: ChannelScope, request: WebhookRequest): Promise<Access> {
  requireGuildChannel(scope.channel);
  const access = await scope.access(request.caller);
  requirePermission(access, 'MANAGE_WEBHOOKS');
  return access;
}

/** True when the request carries an authenticated user (else its token is the credential). */
export function hasCaller(request: WebhookRequest): boolean {
  return request.caller !== undefined && request.caller.userId !== '';
}

/**
 * The webhook a request names, authorized by MANAGE_WEBHOOKS when it carries a caller, else by its
 * token (401 50027 when wrong). Unknown webhooks answer 404 10015 either way.
 */
export async function authorizedWebhook(scope: ChannelScope, request: WebhookRequest): Promise<WebhookRecord> {
  const webhook = await ownWebhook(scope, request.webhookId);
  if (hasCaller(request)) await manageAccess(scope, request);
  else if (!tokenMatches(webhook.token, request.token)) throw new UnauthorizedError('Invalid Webhook Token', 50_027);
  return webhook;
}
