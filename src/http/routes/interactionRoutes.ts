import type { Router } from '@koa/router';
import { ActorKind } from '../../../cluster/ActorSystem.js';
import type { InteractionRequest } from '../../../proto/gen/chorus/v1/channel.js';
import { componentsFromSender } from '../../contract/componentSenders.js';
import { APPLICATION_SENDER, checkCallbackComponents, labelsAsRows } from '../../contract/interaction.js';
import { validate } from '../../contract/validate.js';
import { UnknownEntityError } from '../../domain/errors.js';
import {
  INTERACTION_TOKEN_TTL_MS,
  looksLikeInteractionToken,
  signInteractionToken,
  verifyInteractionToken,
  type InteractionClaims,
} from '../../domain/interactionTokens.js';
import { isSnowflake } from '../../domain/snowflake.js';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { requireCaller, sendReply, snowflakeParam, validBody } from '../routeKit.js';
import { askChannel, stringQuery } from './messageRouteKit.js';
import { permissionFirst } from './permissionFirst.js';
import { askWithUploads, type StoredUploads } from '../attachmentUploads.js';
import { askCallbackWithUploads, bodyWithUploads } from './interactionUploads.js';
import { deliverOverHttp } from '../interactions/httpDelivery.js';

const EMPTY_REQUEST: InteractionRequest = {
  caller: undefined,
  interactionId: '',
  applicationId: '',
  token: '',
  body: '',
  op: '',
  messageId: '',
  withResponse: false,
};

/** The claims of the route's `{token}`; 404 10062 for a forged, mangled or expired one (checked at the edge). */
function claimsOf(ctx: EdgeContext, deps: EdgeDeps): InteractionClaims {
  const claims = verifyInteractionToken(deps.tokenSecret, ctx.params['token'] ?? '', Date.now());
  if (!claims) throw new UnknownEntityError('interaction');
  return claims;
}

/** The request for the Channel actor holding the interaction a token names (the token carries the channel). */
function tokenRequest(
  claims: InteractionClaims,
  token: string,
  fields: Partial<InteractionRequest>,
): InteractionRequest {
  return {
    ...EMPTY_REQUEST,
    interactionId: claims.interactionId,
    applicationId: claims.applicationId,
    token,
    ...fields,
  };
}

/** The callback type whose files edit a message (UPDATE_MESSAGE) rather than start one. */
const UPDATE_MESSAGE = 7;

/** No files in the request. */
const NO_UPLOADS: StoredUploads = { attachments: [], keys: [], indexes: [] };

/** `@original` or a snowflake message id; 400 50035 otherwise. */
function messageParam(ctx: EdgeContext): string {
  return ctx.params['message_id'] === '@original' ? '@original' : snowflakeParam(ctx, 'message_id');
}

/**
 * Interactions: a user invokes one (POST /interactions, answered 204 once the Channel actor of its
 * channel took it); the application answers by token (POST /interactions/{id}/{token}/callback) and
 * follows up or edits its responses on `/webhooks/{application_id}/{interaction_token}/...`. Tokens are
 * HMAC-signed and verified here, so a forged one reaches no actor; the webhook routes hand any other
 * token on to the webhook routes mounted after these.
 */
export function interactionRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  router.post(
    '/interactions',
    permissionFirst(
      async (ctx) => {
        // The channel is named by the body: probe it when it is at least a snowflake.
        const caller = await requireCaller(ctx, deps);
        const channelId = (ctx.request as { body?: { channel_id?: unknown } }).body?.channel_id;
        if (typeof channelId !== 'string' || !isSnowflake(channelId)) return;
        await deps.system.ask(ActorKind.Channel, channelId, {
          command: { $case: 'checkPermission', checkPermission: { caller, anyOf: '0' } },
        });
      },
      async (ctx) => {
        const caller = await requireCaller(ctx, deps);
        const body = validBody(ctx, 'InteractionCreateSchema');
        const interactionId = deps.ids.next();
        const claims = {
          interactionId,
          applicationId: body.application_id,
          channelId: body.channel_id,
          expiresAtMs: Date.now() + INTERACTION_TOKEN_TTL_MS,
        };
        const token = signInteractionToken(deps.tokenSecret, claims);
        const createInteraction = {
          ...EMPTY_REQUEST,
          caller,
          interactionId,
          applicationId: body.application_id,
          token,
          body: JSON.stringify(body),
        };
        const reply = await askChannel(deps, body.channel_id, { $case: 'createInteraction', createInteraction });
        // The Channel hands back the interaction object when the application takes it over HTTP.
        if (reply.reply?.$case === 'json') {
          deliverOverHttp(deps, claims, token, reply.reply.json.json).catch((error: unknown) => {
            deps.log.warn('interaction_http_delivery_failed', { interactionId, error: String(error) });
          });
        }
        ctx.status = 204;
      },
    ),
  );
  router.post('/interactions/:interaction_id/:token/callback', async (ctx) => {
    const claims = claimsOf(ctx, deps);
    if (claims.interactionId !== ctx.params['interaction_id']) throw new UnknownEntityError('interaction');
    const raw = (ctx.request as { body?: unknown }).body;
    const body = checkCallbackComponents(validate('InteractionCallbackSchema', labelsAsRows(raw ?? {})));
    const withResponse = ['true', '1'].includes(stringQuery(ctx, 'with_response'));
    const mode = body.type === UPDATE_MESSAGE ? 'edit' : 'create';
    const data =
      body.data === undefined ? undefined : await bodyWithUploads(ctx, deps, claims.channelId, body.data, mode);
    const uploads = data?.uploads ?? NO_UPLOADS;
    const interactionCallback = tokenRequest(claims, ctx.params['token'] ?? '', {
      body: data === undefined ? JSON.stringify(body) : `{"type":${body.type},"data":${data.json}}`,
      // With files, the reply must show the message, so the uploads it does not hold can be deleted.
      withResponse: withResponse || uploads.keys.length > 0,
    });
    const ask = () => askChannel(deps, claims.channelId, { $case: 'interactionCallback', interactionCallback });
    const reply = await askCallbackWithUploads(deps, uploads, ask);
    if (withResponse) sendReply(ctx, reply);
    else ctx.status = 204;
  });

  /** Runs `op` on an interaction token's webhook route, or hands a webhook's token to the webhook routes. */
  const tokenRoute =
    (op: string, body: (ctx: EdgeContext, channelId: string) => Promise<{ json: string; uploads: StoredUploads }>) =>
    async (ctx: EdgeContext, next: () => Promise<unknown>): Promise<void> => {
      if (!looksLikeInteractionToken(ctx.params['token'])) {
        await next();
        return;
      }
      const claims = claimsOf(ctx, deps);
      if (claims.applicationId !== ctx.params['webhook_id']) throw new UnknownEntityError('interaction');
      const messageId = ctx.params['message_id'] === undefined ? '' : messageParam(ctx);
      const { json, uploads } = await body(ctx, claims.channelId);
      const interactionWebhook = tokenRequest(claims, ctx.params['token'] ?? '', { op, messageId, body: json });
      const ask = () => askChannel(deps, claims.channelId, { $case: 'interactionWebhook', interactionWebhook });
      const reply = await askWithUploads(deps, uploads, ask);
      const wait = op !== 'followup' || ['true', '1'].includes(stringQuery(ctx, 'wait'));
      if (wait) sendReply(ctx, reply);
      else ctx.status = 204;
    };
  const none = () => Promise.resolve({ json: '', uploads: NO_UPLOADS });
  router.post(
    '/webhooks/:webhook_id/:token',
    tokenRoute('followup', (ctx, channelId) => {
      const body = componentsFromSender(validBody(ctx, 'WebhookExecuteSchema'), APPLICATION_SENDER);
      return bodyWithUploads(ctx, deps, channelId, body, 'create');
    }),
  );
  const messagePath = '/webhooks/:webhook_id/:token/messages/:message_id';
  router.get(messagePath, tokenRoute('get', none));
  router.patch(
    messagePath,
    tokenRoute('edit', (ctx, channelId) => {
      const body = componentsFromSender(validBody(ctx, 'MessageEditSchema'), APPLICATION_SENDER);
      return bodyWithUploads(ctx, deps, channelId, body, 'edit');
    }),
  );
  router.delete(messagePath, tokenRoute('delete', none));
}
