import type { Router } from '@koa/router';
import type { Caller } from '../../../proto/gen/chorus/v1/common.js';
import { templateIndexKey } from '../../domain/codeIndex.js';
import { UnknownEntityError } from '../../domain/errors.js';
import { Permission } from '../../domain/permissions.js';
import { Right } from '../../domain/rights.js';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { askWithImages, storeImages } from '../imageUploads.js';
import { bodyFor, requireCaller, requireRight, sendJson, sendReply, validBody } from '../routeKit.js';
import { askGuild, guildRoute, publicUserJson, replyText } from './guildRouteKit.js';

/** Template codes as Chorus issues them (12 base62 characters; a little slack for imported ones). */
const CODE_PATTERN = /^[A-Za-z0-9]{1,32}$/;

/** The route's `{code}`; 404 10057 when it cannot be a template code. */
function codeParam(ctx: EdgeContext): string {
  const code = ctx.params['code'] ?? '';
  if (!CODE_PATTERN.test(code)) throw new UnknownEntityError('template');
  return code;
}

/** The template document (with its source guild id) for a code, from the guild that owns it. */
async function templateByCode(
  deps: EdgeDeps,
  caller: Caller,
  code: string,
): Promise<{ guildId: string; json: string }> {
  const guildId = await deps.invites.resolveInvite(templateIndexKey(code));
  if (!guildId) throw new UnknownEntityError('template');
  const reply = await askGuild(deps, guildId, { $case: 'getTemplate', getTemplate: { caller, code, body: '' } });
  return { guildId, json: replyText(reply) };
}

/**
 * Guild templates. A guild's template lives in its Guild actor; `GET/POST /guilds/templates/{code}`
 * find that guild through the code index in storage, and creating a guild from a template asks the
 * new guild's actor with the template document, then counts the use at the source.
 */
export function templateRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  router.get('/guilds/templates/:code', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    sendJson(ctx, (await templateByCode(deps, caller, codeParam(ctx))).json);
  });
  router.post('/guilds/templates/:code', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    requireRight(caller, Right.CREATE_GUILDS, 'CREATE_GUILDS');
    const code = codeParam(ctx);
    const form = validBody(ctx, 'GuildTemplateCreateSchema');
    const template = await templateByCode(deps, caller, code);
    const ownerUserJson = await publicUserJson(deps, caller, caller.userId);
    const guildId = deps.ids.next();
    // The new guild's icon comes as `avatar` in this body.
    const images = await storeImages(deps, form, guildId, { avatar: 'icons' });
    const reply = await askWithImages(deps, images.created, () =>
      askGuild(deps, guildId, {
        $case: 'createFromTemplate',
        createFromTemplate: { caller, templateJson: template.json, body: images.body, ownerUserJson },
      }),
    );
    try {
      await askGuild(deps, template.guildId, { $case: 'templateUsed', templateUsed: { caller, code, body: '' } });
    } catch (error) {
      // The template may have been deleted meanwhile; the new guild exists either way.
      if (!(error instanceof UnknownEntityError)) throw error;
    }
    sendReply(ctx, reply, 201);
  });
  router.get(
    '/guilds/:guild_id/templates',
    guildRoute(deps, (_ctx, caller) => ({
      $case: 'listTemplates',
      listTemplates: { caller, targetId: '', withCounts: false },
    })),
  );
  router.post(
    '/guilds/:guild_id/templates',
    guildRoute(
      deps,
      (ctx, caller) => ({
        $case: 'createTemplate',
        createTemplate: { caller, body: bodyFor(ctx, 'TemplateCreateSchema') },
      }),
      { needs: Permission.MANAGE_GUILD },
    ),
  );
  router.put(
    '/guilds/:guild_id/templates/:code',
    guildRoute(deps, (ctx, caller) => ({
      $case: 'syncTemplate',
      syncTemplate: { caller, code: codeParam(ctx), body: '' },
    })),
  );
  router.patch(
    '/guilds/:guild_id/templates/:code',
    guildRoute(
      deps,
      (ctx, caller) => ({
        $case: 'updateTemplate',
        updateTemplate: { caller, code: codeParam(ctx), body: bodyFor(ctx, 'TemplateModifySchema') },
      }),
      { needs: Permission.MANAGE_GUILD },
    ),
  );
  router.delete(
    '/guilds/:guild_id/templates/:code',
    guildRoute(deps, (ctx, caller) => ({
      $case: 'deleteTemplate',
      deleteTemplate: { caller, code: codeParam(ctx), body: '' },
    })),
  );
}
