import type { Router } from '@koa/router';
import { ActorKind } from '../../../cluster/ActorSystem.js';
import type { Caller } from '../../../proto/gen/chorus/v1/common.js';
import { commandSearchJson, type CommandIndexJson } from '../../domain/commandIndex.js';
import { isJsonObject, parseJson } from '../../domain/jsonValue.js';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { bodyFor, intQuery, requireCaller, sendJson, sendReply, snowflakeParam } from '../routeKit.js';
import { askGuild } from './guildRouteKit.js';
import { stringQuery } from './messageRouteKit.js';
import { permissionFirst } from './permissionFirst.js';

/** The JSON document of a `json` reply ({} for any other). */
function replyJson(reply: { reply?: { $case: string; json?: { json: string } } | undefined }): unknown {
  const outcome = reply.reply;
  return outcome?.$case === 'json' && outcome.json ? parseJson(outcome.json.json) : {};
}

/**
 * The command index of a channel: a guild channel's from its Guild actor (the caller must see the channel),
 * a DM's from the commands of the bots it is with. The Channel actor answers first, with the channel as the
 * caller sees it, so a channel the caller is not in is 403 50001 / 404 10003 as for GET /channels/{id}.
 */
async function channelIndex(deps: EdgeDeps, caller: Caller, channelId: string): Promise<CommandIndexJson> {
  const channel = replyJson(
    await deps.system.ask(ActorKind.Channel, channelId, {
      command: { $case: 'getChannel', getChannel: { caller, body: '' } },
    }),
  );
  if (!isJsonObject(channel)) return { applications: [], application_commands: [], version: '0' };
  const guildId = channel['guild_id'];
  if (typeof guildId === 'string' && guildId !== '') {
    const reply = await askGuild(deps, guildId, {
      $case: 'commandIndex',
      commandIndex: { caller, channelId, commandId: '' },
    });
    return replyJson(reply) as CommandIndexJson;
  }
  const recipients = Array.isArray(channel['recipients']) ? channel['recipients'].filter(isJsonObject) : [];
  const bots = recipients.filter((user) => user['bot'] === true && user['id'] !== caller.userId);
  return (await deps.dmCommands.forBots(bots)) as CommandIndexJson;
}

/** Asks the Guild actor of `{guildId}` for an application's command permissions (`op`). */
async function askPermissions(ctx: EdgeContext, deps: EdgeDeps, op: string, body = '') {
  const caller = await requireCaller(ctx, deps);
  const commandId = ctx.params['commandId'] === undefined ? '' : snowflakeParam(ctx, 'commandId');
  return askGuild(deps, snowflakeParam(ctx, 'guildId'), {
    $case: 'commandPermissions',
    commandPermissions: { caller, applicationId: snowflakeParam(ctx, 'applicationId'), commandId, op, body },
  });
}

/**
 * What user clients call to list the commands they may use (the application command index of a guild,
 * a channel, and the older search route), and the command permissions v2 a guild sets per command. The
 * permission routes are registered before `/commands/{id}`, whose id would otherwise take "permissions".
 */
export function commandIndexRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  router.get('/guilds/:guild_id/application-command-index', async (ctx) => {
    const caller = await requireCaller(ctx, deps);
    const reply = await askGuild(deps, snowflakeParam(ctx, 'guild_id'), {
      $case: 'commandIndex',
      commandIndex: { caller, channelId: '', commandId: '' },
    });
    sendReply(ctx, reply);
  });
  router.get('/channels/:channel_id/application-command-index', async (ctx) => {
    const caller = await requireCaller(ctx, deps);
    sendJson(ctx, JSON.stringify(await channelIndex(deps, caller, snowflakeParam(ctx, 'channel_id'))));
  });
  router.get('/channels/:channel_id/application-commands/search', async (ctx) => {
    const caller = await requireCaller(ctx, deps);
    const type = stringQuery(ctx, 'type') === '' ? undefined : intQuery(ctx, 'type', 1, 1, 4);
    const search = {
      ...(type === undefined ? {} : { type }),
      query: stringQuery(ctx, 'query'),
      limit: intQuery(ctx, 'limit', 25, 1, 100),
      includeApplications: ['true', '1'].includes(stringQuery(ctx, 'include_applications')),
    };
    const index = await channelIndex(deps, caller, snowflakeParam(ctx, 'channel_id'));
    sendJson(ctx, JSON.stringify(commandSearchJson(index, search)));
  });
  const base = '/applications/:applicationId/guilds/:guildId/commands';
  router.get(`${base}/permissions`, async (ctx) => {
    sendReply(ctx, await askPermissions(ctx, deps, 'list'));
  });
  router.get(`${base}/:commandId/permissions`, async (ctx) => {
    sendReply(ctx, await askPermissions(ctx, deps, 'get'));
  });
  router.put(
    `${base}/:commandId/permissions`,
    permissionFirst(
      async (ctx) => {
        await askPermissions(ctx, deps, 'probe');
      },
      async (ctx) => {
        sendReply(ctx, await askPermissions(ctx, deps, 'put', bodyFor(ctx, 'ApplicationCommandPermissionsSchema')));
      },
    ),
  );
}
