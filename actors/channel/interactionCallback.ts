import type { ChannelReply, InteractionRequest } from '../../proto/gen/chorus/v1/channel.js';
import { BadRequestError, UnknownEntityError, ValidationError } from '../../src/domain/errors.js';
import type { JsonObject } from '../../src/domain/jsonValue.js';
import { bodyOf } from '../../src/contract/bodyOf.js';
import { InteractionCallbackSchema, MessageEditSchema, WebhookExecuteSchema } from '../../src/contract/index.js';
import type { InteractionCallbackBody } from '../../src/contract/interaction.js';
import { tellUser } from './channelEvents.js';
import { EMPTY_REPLY, jsonReply, type ChannelScope } from './ChannelScope.js';
import { tellInvoker } from './interactionCreate.js';
import { InteractionType } from './interactionInvoke.js';
import { checkModal } from './interactionModal.js';
import {
  deleteResponse,
  editResponse,
  getResponse,
  ResponseFlag,
  sendFollowup,
  sendResponse,
} from './interactionMessages.js';
import type { LiveInteraction } from './InteractionRegistry.js';

/** Interaction response types (Discord's InteractionResponseType). */
const Callback = {
  Pong: 1,
  ChannelMessage: 4,
  DeferredChannelMessage: 5,
  DeferredUpdate: 6,
  UpdateMessage: 7,
  AutocompleteResult: 8,
  Modal: 9,
} as const;

/** Which interaction types each response type answers. */
const ANSWERS: Readonly<Record<number, readonly number[]>> = {
  [Callback.ChannelMessage]: [InteractionType.Command, InteractionType.Component, InteractionType.ModalSubmit],
  [Callback.DeferredChannelMessage]: [InteractionType.Command, InteractionType.Component, InteractionType.ModalSubmit],
  [Callback.DeferredUpdate]: [InteractionType.Component, InteractionType.ModalSubmit],
  [Callback.UpdateMessage]: [InteractionType.Component, InteractionType.ModalSubmit],
  [Callback.AutocompleteResult]: [InteractionType.Autocomplete],
  [Callback.Modal]: [InteractionType.Command, InteractionType.Component],
};

/** The live interaction a token-authorized request names; 404 10062 when unknown, expired or another's token. */
function liveOf(scope: ChannelScope, request: InteractionRequest): LiveInteraction {
  const live = scope.interactions.get(request.interactionId, scope.ctx.clock.now());
  if (!live || live.token !== request.token || live.applicationId !== request.applicationId) {
    throw new UnknownEntityError('interaction');
  }
  return live;
}

/** The message fields of a callback's data (a create or edit body). */
function messageOf(data: InteractionCallbackBody['data']): JsonObject {
  const message: JsonObject = { ...data };
  delete message['choices'];
  delete message['custom_id'];
  delete message['title'];
  return message;
}

/** Runs one response type; returns the message it created or changed, if any. */
async function respond(
  scope: ChannelScope,
  live: LiveInteraction,
  body: InteractionCallbackBody,
): Promise<Record<string, unknown> | undefined> {
  const message = JSON.stringify(messageOf(body.data));
  switch (body.type) {
    case Callback.ChannelMessage:
    case Callback.DeferredChannelMessage: {
      const deferred = body.type === Callback.DeferredChannelMessage;
      const parsed = bodyOf(WebhookExecuteSchema, message);
      const sent = await sendResponse(scope, live, deferred ? { flags: parsed.flags ?? 0 } : parsed, deferred);
      live.originalMessageId = String(sent['id']);
      return sent;
    }
    case Callback.DeferredUpdate:
    case Callback.UpdateMessage: {
      if (live.sourceMessageId === null)
        throw ValidationError.field('type', 'INTERACTION_RESPONSE_TYPE_INVALID', 'No message to update.');
      live.originalMessageId = live.sourceMessageId;
      if (body.type === Callback.DeferredUpdate) return undefined;
      return editResponse(scope, live, live.sourceMessageId, bodyOf(MessageEditSchema, message));
    }
    case Callback.AutocompleteResult: {
      const choices = body.data?.choices;
      if (choices === undefined)
        throw ValidationError.field('data.choices', 'BASE_TYPE_REQUIRED', 'This field is required');
      const data = JSON.stringify({ choices, nonce: live.nonce });
      tellUser(scope.ctx, live.invokerId, {
        event: 'APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE',
        dataJson: data,
        intent: 0,
      });
      return undefined;
    }
    case Callback.Modal: {
      const modal = checkModal(body.data, scope.ctx.ids.next());
      scope.interactions.showModal(live, modal.pending);
      const data = JSON.stringify({
        ...modal.json,
        channel_id: scope.channel.id,
        application: { id: live.applicationId },
        nonce: live.nonce,
      });
      tellUser(scope.ctx, live.invokerId, { event: 'INTERACTION_MODAL_CREATE', dataJson: data, intent: 0 });
      return undefined;
    }
    default:
      throw ValidationError.field('type', 'INTERACTION_RESPONSE_TYPE_INVALID', 'Invalid interaction response type.');
  }
}

/**
 * POST /interactions/{id}/{token}/callback: the application's one response, within the 3 s window
 * (after it: 404 10062; a second: 400 40060 "Interaction has already been acknowledged"). The invoker's
 * sessions get INTERACTION_SUCCESS. Replies with the callback resource when `with_response` is set.
 */
export async function interactionCallback(scope: ChannelScope, request: InteractionRequest): Promise<ChannelReply> {
  const live = liveOf(scope, request);
  if (live.acknowledged) throw new BadRequestError('Interaction has already been acknowledged.', 40_060);
  if (live.failed) throw new UnknownEntityError('interaction');
  const body = bodyOf(InteractionCallbackSchema, request.body);
  if (!(ANSWERS[body.type] ?? []).includes(live.type)) {
    throw ValidationError.field(
      'type',
      'INTERACTION_RESPONSE_TYPE_INVALID',
      'This response type does not answer this interaction.',
    );
  }
  const message = await respond(scope, live, body);
  live.acknowledged = true;
  tellInvoker(scope, live, 'INTERACTION_SUCCESS');
  if (!request.withResponse) return EMPTY_REPLY;
  const interaction: JsonObject = { id: live.id, type: live.type, activity_instance_id: null };
  if (message !== undefined) {
    const flags = Number(message['flags'] ?? 0);
    interaction['response_message_id'] = message['id'];
    interaction['response_message_loading'] = (flags & ResponseFlag.Loading) !== 0;
    interaction['response_message_ephemeral'] = (flags & ResponseFlag.Ephemeral) !== 0;
  }
  const resource: JsonObject = { type: body.type };
  if (message !== undefined) resource['message'] = message;
  return jsonReply(JSON.stringify({ interaction, resource }));
}

/**
 * The webhook routes of an interaction token (for 15 minutes): `followup` (POST), and `get`, `edit`,
 * `delete` of `@original` or a message by id. 404 10062 once the interaction is unknown here.
 */
export async function interactionWebhook(scope: ChannelScope, request: InteractionRequest): Promise<ChannelReply> {
  const live = liveOf(scope, request);
  switch (request.op) {
    case 'followup': {
      const sent = await sendFollowup(scope, live, bodyOf(WebhookExecuteSchema, request.body));
      return jsonReply(JSON.stringify(sent));
    }
    case 'get':
      return jsonReply(JSON.stringify(await getResponse(scope, live, request.messageId)));
    case 'edit':
      return jsonReply(
        JSON.stringify(await editResponse(scope, live, request.messageId, bodyOf(MessageEditSchema, request.body))),
      );
    case 'delete':
      await deleteResponse(scope, live, request.messageId);
      return EMPTY_REPLY;
    default:
      throw new UnknownEntityError('interaction');
  }
}
