import type { Router } from '@koa/router';
import type { Caller } from '../../../proto/gen/chorus/v1/common.js';
import { UnknownEntityError, ValidationError } from '../../domain/errors.js';
import { Right } from '../../domain/rights.js';
import { isSnowflake } from '../../domain/snowflake.js';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { askWithImages, storeImages } from '../imageUploads.js';
import { verifyInteractionsEndpoint } from '../interactions/endpointCheck.js';
import { bodyFor, requireCaller, requireRight, sendObject, sendReply, snowflakeParam, validBody } from '../routeKit.js';
import { originOf } from '../publicOrigin.js';
import { permissionFirst } from './permissionFirst.js';
import { askUser, nestedId, peopleRoute, refuseBots, replyJson, selfRoute } from './userRouteKit.js';

/** The `client_id` query of the OAuth2 routes: a snowflake; 50035 naming it otherwise. */
function clientId(ctx: EdgeContext): string {
  const raw = ctx.query['client_id'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!isSnowflake(value))
    throw ValidationError.field('client_id', 'NUMBER_TYPE_COERCE', `Value "${value ?? ''}" is not snowflake.`);
  return value;
}

/**
 * The bot user of an application the caller owns: asked of the caller's actor (which checks
 * ownership, 404 10002 otherwise); the bot's own actor then serves the bot route.
 */
async function botOf(deps: EdgeDeps, caller: Caller, applicationId: string): Promise<string> {
  const app = replyJson(
    await askUser(deps, caller.userId, {
      $case: 'getApplication',
      getApplication: { caller, applicationId, body: '' },
    }),
  );
  if (nestedId(app, 'owner') !== caller.userId) throw new UnknownEntityError('application');
  const botId = nestedId(app, 'bot');
  if (botId === undefined) throw new UnknownEntityError('user');
  return botId;
}

/**
 * The id of an application the caller owns or is the bot of ('': the calling bot's own, whose icon is
 * stored under that id); 404 10002 when none.
 */
async function applicationIdOf(deps: EdgeDeps, caller: Caller, applicationId = ''): Promise<string> {
  const app = replyJson(
    await askUser(deps, caller.userId, {
      $case: 'getApplication',
      getApplication: { caller, applicationId, body: '' },
    }),
  );
  const id = app?.['id'];
  if (typeof id !== 'string') throw new UnknownEntityError('application');
  return id;
}

/** Applications, their bots, and the OAuth2 bot-authorization flow. */
export function applicationRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  router.get(
    '/applications',
    selfRoute(deps, (_ctx, caller) => ({ $case: 'listApplications', listApplications: { caller } })),
  );
  router.post('/applications', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    refuseBots(caller);
    requireRight(caller, Right.CREATE_APPLICATIONS, 'CREATE_APPLICATIONS');
    const body = bodyFor(ctx, 'ApplicationCreateSchema');
    sendReply(
      ctx,
      await askUser(deps, caller.userId, { $case: 'createApplication', createApplication: { caller, body } }),
      201,
    );
  });
  for (const path of ['/applications/@me', '/oauth2/applications/@me']) {
    router.get(
      path,
      selfRoute(deps, (_ctx, caller) => ({
        $case: 'getApplication',
        getApplication: { caller, applicationId: '', body: '' },
      })),
    );
  }
  router.get(
    '/applications/:id',
    selfRoute(deps, (ctx, caller) => ({
      $case: 'getApplication',
      getApplication: { caller, applicationId: snowflakeParam(ctx, 'id'), body: '' },
    })),
  );
  // "@me" (the calling bot's application) is mounted first, so "{id}" does not take it.
  // An invalid body from someone who does not own the application answers as reading it would (permissionFirst).
  const ownsApplication = async (ctx: EdgeContext): Promise<void> => {
    const caller = await requireCaller(ctx, deps);
    const applicationId = ctx.params['id'] === undefined ? '' : snowflakeParam(ctx, 'id');
    await askUser(deps, caller.userId, {
      $case: 'getApplication',
      getApplication: { caller, applicationId, body: '' },
    });
  };
  for (const path of ['/applications/@me', '/applications/:id']) {
    router.patch(
      path,
      permissionFirst(ownsApplication, async (ctx: EdgeContext) => {
        const caller = await requireCaller(ctx, deps);
        const applicationId = ctx.params['id'] === undefined ? '' : snowflakeParam(ctx, 'id');
        const form = validBody(ctx, 'ApplicationModifySchema');
        const endpointUrl = form.interactions_endpoint_url;
        if (endpointUrl !== undefined && endpointUrl !== '') {
          // Nothing is posted for someone who may not change the application: the id is asked of the caller's actor.
          await verifyInteractionsEndpoint(deps, await applicationIdOf(deps, caller, applicationId), endpointUrl);
        }
        // Only a new icon needs the id "@me" stands for (the extra ask is skipped otherwise).
        const newIcon = typeof form.icon === 'string' && form.icon.startsWith('data:');
        const ownerId = applicationId || (newIcon ? await applicationIdOf(deps, caller) : '');
        const images = await storeImages(deps, form, ownerId, { icon: 'app-icons' });
        const reply = await askWithImages(deps, images.created, () =>
          askUser(deps, caller.userId, {
            $case: 'updateApplication',
            updateApplication: { caller, applicationId, body: images.body },
          }),
        );
        sendReply(ctx, reply);
      }),
    );
  }
  router.post('/applications/:id/bot', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    refuseBots(caller);
    const applicationId = snowflakeParam(ctx, 'id');
    sendReply(
      ctx,
      await askUser(deps, caller.userId, { $case: 'createBot', createBot: { caller, applicationId, body: '' } }),
    );
  });
  router.post('/applications/:id/bot/reset', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    const applicationId = snowflakeParam(ctx, 'id');
    const botId = await botOf(deps, caller, applicationId);
    sendReply(
      ctx,
      await askUser(deps, botId, { $case: 'resetBotToken', resetBotToken: { caller, applicationId, body: '' } }),
    );
  });
  router.patch('/applications/:id/bot', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    const applicationId = snowflakeParam(ctx, 'id');
    const form = validBody(ctx, 'BotModifySchema');
    const botId = await botOf(deps, caller, applicationId);
    const images = await storeImages(deps, form, botId, { avatar: 'avatars' });
    const reply = await askWithImages(deps, images.created, () =>
      askUser(deps, botId, { $case: 'updateBot', updateBot: { caller, applicationId, body: images.body } }),
    );
    sendReply(ctx, reply);
  });
  oauthRoutes(router, deps);
}

/** GET/POST /oauth2/authorize: adding an application's bot to a guild (scope `bot`). */
function oauthRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  // Authorizing is done by a person in a browser: bots get 403 20001.
  router.get(
    '/oauth2/authorize',
    peopleRoute(deps, (ctx, caller) => ({
      $case: 'getAuthorize',
      getAuthorize: { caller, applicationId: clientId(ctx), body: '' },
    })),
  );
  router.post('/oauth2/authorize', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    refuseBots(caller);
    const applicationId = clientId(ctx);
    const scope = String(ctx.query['scope'] ?? 'bot');
    if (!scope.split(/[\s+]+/).includes('bot')) {
      // Only the bot flow exists here: there are no OAuth2 access tokens to grant for other scopes.
      throw ValidationError.field(
        'scope',
        'SCOPE_UNSUPPORTED',
        'Only the "bot" scope can be authorized on this instance.',
      );
    }
    const body = bodyFor(ctx, 'ApplicationAuthorizeSchema');
    const outcome = replyJson(
      await askUser(deps, caller.userId, {
        $case: 'authorizeApplication',
        authorizeApplication: { caller, applicationId, body },
      }),
    );
    const location = `${originOf(ctx, deps)}/oauth2/authorized`;
    sendObject(ctx, { location: outcome?.['authorized'] === true ? location : `${location}?error=access_denied` });
  });
}
