import type { Router } from '@koa/router';
import { ActorKind } from '../../../cluster/ActorSystem.js';
import { BadRequestError, MissingAccessError, ValidationError } from '../../domain/errors.js';
import { PASSWORD_CHECK_MAX_LENGTH } from '../../contract/discordLimits.js';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { askWithImages, storeImages, type ImageFields } from '../imageUploads.js';
import { bodyFor, intQuery, requireCaller, sendReply, snowflakeParam, snowflakeQuery, validBody } from '../routeKit.js';
import { askUser, boolQuery, peopleRoute, refuseBots, selfRoute } from './userRouteKit.js';

/** A user's images, served at /avatars/{user_id}/{hash}.png and /banners/{user_id}/{hash}.png. */
const USER_IMAGES: ImageFields = { avatar: 'avatars', banner: 'banners' };

/** `{id}` of /users/{id}/...: a snowflake, or "@me" for the caller. */
async function userParam(ctx: EdgeContext, deps: EdgeDeps): Promise<string> {
  const caller = await requireCaller(ctx, deps);
  return ctx.params['id'] === '@me' ? caller.userId : snowflakeParam(ctx, 'id');
}

/**
 * The account, its profile, settings and guild list (routes on "@me" are mounted before "{id}").
 * Settings, MFA, disabling or deleting the account and profile edits are for people: bots get 403 20001.
 */
export function userRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  router.get(
    '/users/@me',
    selfRoute(deps, (_ctx, caller) => ({ $case: 'getMe', getMe: { caller } })),
  );
  router.patch('/users/@me', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    const images = await storeImages(deps, validBody(ctx, 'UserModifySchema'), caller.userId, USER_IMAGES);
    const reply = await askWithImages(deps, images.created, () =>
      askUser(deps, caller.userId, { $case: 'updateMe', updateMe: { caller, body: images.body } }),
    );
    sendReply(ctx, reply);
  });
  router.get(
    '/users/@me/settings',
    peopleRoute(deps, (_ctx, caller) => ({ $case: 'getSettings', getSettings: { caller } })),
  );
  router.patch(
    '/users/@me/settings',
    peopleRoute(deps, (ctx, caller) => ({
      $case: 'updateSettings',
      updateSettings: { caller, body: bodyFor(ctx, 'UserSettingsSchema') },
    })),
  );
  router.get(
    '/users/@me/guilds',
    selfRoute(deps, (ctx, caller) => ({
      $case: 'listGuilds',
      listGuilds: {
        caller,
        before: snowflakeQuery(ctx, 'before'),
        after: snowflakeQuery(ctx, 'after'),
        limit: intQuery(ctx, 'limit', 200, 1, 200),
        withCounts: boolQuery(ctx, 'with_counts'),
      },
    })),
  );
  router.delete('/users/@me/guilds/:guild_id', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    const guildId = snowflakeParam(ctx, 'guild_id');
    const guild = await deps.system.ask(ActorKind.Guild, guildId, {
      command: { $case: 'getGuild', getGuild: { caller, targetId: '', withCounts: false } },
    });
    const ownerId =
      guild.reply?.$case === 'json' ? (JSON.parse(guild.reply.json.json) as { owner_id?: string }).owner_id : '';
    // The owner must transfer or delete the guild instead (Discord answers "Invalid guild").
    if (ownerId === caller.userId) throw new BadRequestError('Invalid guild', 50_055);
    await deps.system.ask(ActorKind.Guild, guildId, {
      command: { $case: 'removeMember', removeMember: { caller, userId: caller.userId, body: '' } },
    });
    ctx.status = 204;
  });
  router.get('/users/@me/guilds/:guild_id/member', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    const guildId = snowflakeParam(ctx, 'guild_id');
    const member = await deps.system.ask(ActorKind.Guild, guildId, {
      command: { $case: 'getMember', getMember: { caller, userId: caller.userId, body: '' } },
    });
    sendReply(ctx, member);
  });
  // "@me" (DM notification settings) first: the {guild_id} route would refuse it as a snowflake.
  for (const path of ['/users/@me/guilds/@me/settings', '/users/@me/guilds/:guild_id/settings']) {
    const guildOf = (ctx: EdgeContext): string =>
      path.includes('@me/settings') ? '@me' : snowflakeParam(ctx, 'guild_id');
    router.get(
      path,
      peopleRoute(deps, (ctx, caller) => ({
        $case: 'getGuildSettings',
        getGuildSettings: { caller, guildId: guildOf(ctx), body: '' },
      })),
    );
    router.patch(
      path,
      peopleRoute(deps, (ctx, caller) => ({
        $case: 'updateGuildSettings',
        updateGuildSettings: { caller, guildId: guildOf(ctx), body: bodyFor(ctx, 'UserGuildSettingsSchema') },
      })),
    );
  }
  router.post(
    '/users/@me/disable',
    peopleRoute(deps, (ctx, caller) => ({
      $case: 'disableAccount',
      disableAccount: { caller, body: passwordBody(ctx) },
    })),
  );
  router.post(
    '/users/@me/delete',
    peopleRoute(deps, (ctx, caller) => ({
      $case: 'deleteAccount',
      deleteAccount: { caller, body: passwordBody(ctx) },
    })),
  );
  mfaRoutes(router, deps);
  profileRoutes(router, deps);
}

/** TOTP on and off (RFC 6238), and backup codes behind the password. */
function mfaRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  router.post(
    '/users/@me/mfa/totp/enable',
    peopleRoute(deps, (ctx, caller) => ({
      $case: 'enableTotp',
      enableTotp: { caller, body: bodyFor(ctx, 'TotpEnableSchema') },
    })),
  );
  router.post(
    '/users/@me/mfa/totp/disable',
    peopleRoute(deps, (ctx, caller) => ({
      $case: 'disableTotp',
      disableTotp: { caller, body: bodyFor(ctx, 'TotpDisableSchema') },
    })),
  );
  router.post(
    '/users/@me/mfa/codes',
    peopleRoute(deps, (ctx, caller) => ({
      $case: 'getBackupCodes',
      getBackupCodes: { caller, body: bodyFor(ctx, 'MfaCodesSchema') },
    })),
  );
  router.post('/users/@me/mfa/codes-verification', async (ctx: EdgeContext) => {
    refuseBots(await requireCaller(ctx, deps));
    bodyFor(ctx, 'CodesVerificationSchema');
    // This flow needs a key mailed to the user; this instance sends no mail, so no key can be valid.
    throw ValidationError.field(
      'key',
      'MFA_KEY_INVALID',
      'This instance does not mail verification keys; use POST /users/@me/mfa/codes with your password.',
    );
  });
}

/** Public user and profile routes on "{id}" (after every "@me" route). */
function profileRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  router.get('/users/:id', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    const userId = await userParam(ctx, deps);
    sendReply(ctx, await askUser(deps, userId, { $case: 'getPublic', getPublic: { caller } }));
  });
  router.get('/users/:id/profile', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    const userId = await userParam(ctx, deps);
    const withMutualGuilds = ctx.query['with_mutual_guilds'] === undefined || boolQuery(ctx, 'with_mutual_guilds');
    sendReply(ctx, await askUser(deps, userId, { $case: 'getProfile', getProfile: { caller, withMutualGuilds } }));
  });
  router.patch('/users/:id/profile', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    refuseBots(caller);
    if ((await userParam(ctx, deps)) !== caller.userId) throw new MissingAccessError();
    const images = await storeImages(deps, validBody(ctx, 'UserProfileModifySchema'), caller.userId, USER_IMAGES);
    const reply = await askWithImages(deps, images.created, () =>
      askUser(deps, caller.userId, { $case: 'updateProfile', updateProfile: { caller, body: images.body } }),
    );
    sendReply(ctx, reply);
  });
  router.get('/users/:id/relationships', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    refuseBots(caller);
    const userId = await userParam(ctx, deps);
    sendReply(ctx, await askUser(deps, userId, { $case: 'mutualRelationships', mutualRelationships: { caller } }));
  });
}

/** `{password}` of the disable and delete routes (no spec schema: a missing one fails the password check). */
function passwordBody(ctx: EdgeContext): string {
  const body = (ctx.request as { body?: unknown }).body;
  const password = typeof body === 'object' && body !== null ? (body as { password?: unknown }).password : undefined;
  if (password !== undefined && typeof password !== 'string') {
    throw ValidationError.field('password', 'BASE_TYPE_STRING', 'Must be a string.');
  }
  if (password !== undefined && password.length > PASSWORD_CHECK_MAX_LENGTH) {
    const message = `Must be ${PASSWORD_CHECK_MAX_LENGTH} or fewer in length.`;
    throw ValidationError.field('password', 'BASE_TYPE_MAX_LENGTH', message);
  }
  return JSON.stringify(password === undefined ? {} : { password });
}
