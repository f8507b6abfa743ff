import type { ChannelReply, InteractionRequest, InteractionTimeout } from '../../proto/gen/chorus/v1/channel.js';
import type { Caller } from '../../proto/gen/chorus/v1/common.js';
import { UnknownEntityError } from '../../src/domain/errors.js';
import { parseJsonObject, type JsonObject } from '../../src/domain/jsonValue.js';
import { bodyOf } from '../../src/contract/bodyOf.js';
import { InteractionCreateSchema } from '../../src/contract/index.js';
import { accessOf, requireCaller, requirePermission, type Access } from './channelAccess.js';
import { channelJson } from './channelJson.js';
import { tellGuildUser, tellUser } from './channelEvents.js';
import { EMPTY_REPLY, jsonReply, type ChannelScope } from './ChannelScope.js';
import { InteractionType, invokeCommand, invokeComponent, invokeModal, type Invocation } from './interactionInvoke.js';
import { INTERACTION_WINDOW_MS, type LiveInteraction } from './InteractionRegistry.js';

/** Interaction contexts (Discord's InteractionContextType): in a guild, in the bot's DM, in another private channel. */
const Context = { Guild: 0, BotDm: 1, PrivateChannel: 2 } as const;

/** Tells the invoker's sessions about their interaction (INTERACTION_CREATE / SUCCESS / FAILURE: `{id, nonce}`). */
export function tellInvoker(scope: ChannelScope, live: LiveInteraction, event: string): void {
  const data = JSON.stringify({ id: live.id, nonce: live.nonce });
  tellUser(scope.ctx, live.invokerId, { event, dataJson: data, intent: 0 });
}

/** The invoker as the interaction carries them: `member` (with permissions) in a guild, else `user`. */
async function invokerFields(scope: ChannelScope, access: Access): Promise<JsonObject> {
  await scope.loadUsers([access.userId]);
  const user = scope.users.get(access.userId);
  if (scope.channel.guild_id === null || access.memberJson === '') return { user };
  const member = parseJsonObject(access.memberJson);
  return { member: { ...member, user: member['user'] ?? user, permissions: access.permissions.toString() } };
}

async function invocationOf(
  scope: ChannelScope,
  caller: Caller,
  app: Parameters<typeof invokeCommand>[2],
  body: ReturnType<typeof bodyOf<typeof InteractionCreateSchema>>,
): Promise<Invocation> {
  switch (body.type) {
    case InteractionType.Component:
      return invokeComponent(scope, caller, app, body);
    case InteractionType.ModalSubmit:
      return invokeModal(scope, caller.userId, app, body);
    default:
      return invokeCommand(scope, caller, app, body);
  }
}

/**
 * POST /interactions: a user invokes a command, clicks a component, asks autocomplete or submits a
 * modal here. Checks VIEW_CHANNEL and (in a guild) USE_APPLICATION_COMMANDS, that the application's bot
 * is here, and the invocation (see interactionInvoke); then keeps the interaction's live state, sends
 * INTERACTION_CREATE (the full object) to the bot's sessions and `{id, nonce}` to the invoker's, and
 * starts the 3 s window. The edge assigned the id and signed the token. For an application with an
 * interactions_endpoint_url the reply is the interaction object instead, for the edge to POST.
 */
export async function createInteraction(scope: ChannelScope, request: InteractionRequest): Promise<ChannelReply> {
  const caller = requireCaller(request.caller);
  const access = await scope.access(caller);
  const { channel, ctx } = scope;
  const guildId = channel.guild_id;
  if (guildId !== null) requirePermission(access, 'USE_APPLICATION_COMMANDS');
  const body = bodyOf(InteractionCreateSchema, request.body);
  const app = await scope.stores.applications.get(body.application_id);
  const botUserId = app?.bot_user_id ?? null;
  if (!app || botUserId === null) throw new UnknownEntityError('application');
  // The application must be here: its bot a member of the guild, or a recipient of the DM.
  const botAccess = await accessOf(ctx, channel, botUserId, scope.accessCache).catch(() => undefined);
  if (!botAccess?.member) {
    throw body.type === InteractionType.Component
      ? new UnknownEntityError('message')
      : new UnknownEntityError('application command');
  }
  const invocation = await invocationOf(scope, caller, app, body);
  const now = ctx.clock.now();
  const invoker = await invokerFields(scope, access);
  const user = (invoker['user'] ?? (invoker['member'] as JsonObject)['user']) as JsonObject;
  const owners = guildId === null ? { '1': caller.userId } : { '0': guildId };
  const live: LiveInteraction = {
    id: request.interactionId,
    token: request.token,
    type: body.type,
    applicationId: app.id,
    botUserId,
    invokerId: caller.userId,
    nonce: body.nonce === undefined ? null : String(body.nonce),
    createdAtMs: now,
    metadata: {
      id: request.interactionId,
      type: body.type,
      user,
      authorizing_integration_owners: owners,
      ...invocation.metadata,
    },
    sourceMessageId: invocation.sourceMessage?.id ?? null,
    responseType: invocation.responseType,
    acknowledged: false,
    failed: false,
    originalMessageId: null,
    ephemeral: new Map(),
  };
  const payload: JsonObject = {
    id: live.id,
    application_id: app.id,
    type: body.type,
    data: invocation.data,
    channel: channelJson(channel, botUserId, (id) => scope.users.get(id)),
    channel_id: channel.id,
    ...invoker,
    token: live.token,
    version: 1,
    app_permissions: botAccess.permissions.toString(),
    locale: 'en-US',
    entitlements: [],
    authorizing_integration_owners: owners,
    context:
      guildId !== null
        ? Context.Guild
        : channel.recipient_ids.includes(botUserId)
          ? Context.BotDm
          : Context.PrivateChannel,
    attachment_size_limit: 10 * 1024 * 1024,
  };
  if (guildId !== null) {
    payload['guild_id'] = guildId;
    payload['guild_locale'] = 'en-US';
    payload['guild'] = { id: guildId, locale: 'en-US', features: [] };
  }
  if (invocation.sourceMessage) [payload['message']] = await scope.render([invocation.sourceMessage], botUserId);
  scope.interactions.add(live, now);
  const json = JSON.stringify(payload);
  const endpointUrl = app.extra['interactions_endpoint_url'];
  const overHttp = typeof endpointUrl === 'string' && endpointUrl !== '';
  if (!overHttp) {
    const created = { event: 'INTERACTION_CREATE', dataJson: json, intent: 0 };
    // In a guild, the bot's session on the guild's shard (the Guild knows it); in a DM, shard 0's.
    if (guildId !== null) tellGuildUser(ctx, guildId, botUserId, created);
    else tellUser(ctx, botUserId, created);
  }
  tellInvoker(scope, live, 'INTERACTION_CREATE');
  ctx.tellSelfAfter(INTERACTION_WINDOW_MS, {
    command: { $case: 'interactionTimeout', interactionTimeout: { interactionId: live.id } },
  });
  // An application with an interactions endpoint gets the object by a signed POST, which the edge makes.
  return overHttp ? jsonReply(json) : EMPTY_REPLY;
}

/** The 3 s window closed: an interaction still unanswered failed, and its invoker's sessions hear so. */
export function interactionTimeout(scope: ChannelScope, timeout: InteractionTimeout): ChannelReply {
  const live = scope.interactions.get(timeout.interactionId, scope.ctx.clock.now());
  if (live && !live.acknowledged && !live.failed) {
    live.failed = true;
    tellInvoker(scope, live, 'INTERACTION_FAILURE');
  }
  return EMPTY_REPLY;
}
