import type { Router } from '@koa/router';
import type { Caller } from '../../../proto/gen/chorus/v1/common.js';
import { UnknownEntityError, ValidationError } from '../../domain/errors.js';
import { Permission } from '../../domain/permissions.js';
import { compareSnowflakes, isSnowflake } from '../../domain/snowflake.js';
import { Right } from '../../domain/rights.js';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';
import {
  intQuery,
  requireCaller,
  requireRight,
  sendJson,
  snowflakeParam,
  snowflakeQuery,
  validBody,
} from '../routeKit.js';
import { askGuild, auditLogReason, guildRoute, publicUserJson, replyText } from './guildRouteKit.js';
import { guildProbe, permissionFirst } from './permissionFirst.js';

/** include_roles as Discord takes it: a comma-separated query value, or an array in the body. */
function roleList(raw: unknown): string[] {
  const values = Array.isArray(raw) ? raw.map(String) : typeof raw === 'string' && raw !== '' ? raw.split(',') : [];
  values.forEach((value, index) => {
    if (!isSnowflake(value))
      throw ValidationError.field(`include_roles.${index}`, 'NUMBER_TYPE_COERCE', 'Not a snowflake.');
  });
  return values;
}

/** Discord's page of bans: 1000 at most and by default. */
const BANS_PAGE_MAX = 1000;

/** The banned user's id of a ban as the Guild lists it. */
function bannedId(ban: unknown): string {
  const user = (ban as { user?: { id?: unknown } } | null)?.user;
  return typeof user?.id === 'string' ? user.id : '';
}

/**
 * A page of bans as Discord pages them, in user id order: the `limit` right after `after`, or right before
 * `before`, or the first ones.
 */
function banPage(bans: unknown[], page: { limit: number; before: string; after: string }): unknown[] {
  const ordered = [...bans].sort((a, b) => compareSnowflakes(bannedId(a), bannedId(b)));
  if (page.after !== '') {
    return ordered.filter((ban) => compareSnowflakes(bannedId(ban), page.after) > 0).slice(0, page.limit);
  }
  if (page.before !== '') {
    return ordered.filter((ban) => compareSnowflakes(bannedId(ban), page.before) < 0).slice(-page.limit);
  }
  return ordered.slice(0, page.limit);
}

/** Bans and prune. */
export function moderationRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  const banTarget = (ctx: EdgeContext, caller: Caller) => ({
    caller,
    userId: snowflakeParam(ctx, 'user_id'),
    body: '',
  });
  // The Guild lists every ban (it checks BAN_MEMBERS); the edge pages them, after a refusal if there is one.
  router.get(
    '/guilds/:guild_id/bans',
    permissionFirst(guildProbe(deps, Permission.BAN_MEMBERS), async (ctx) => {
      const caller = await requireCaller(ctx, deps);
      const page = {
        limit: intQuery(ctx, 'limit', BANS_PAGE_MAX, 1, BANS_PAGE_MAX),
        before: snowflakeQuery(ctx, 'before'),
        after: snowflakeQuery(ctx, 'after'),
      };
      const listBans = { caller, targetId: '', withCounts: false };
      const reply = await askGuild(deps, snowflakeParam(ctx, 'guild_id'), { $case: 'listBans', listBans });
      const bans: unknown = JSON.parse(replyText(reply));
      sendJson(ctx, JSON.stringify(Array.isArray(bans) ? banPage(bans, page) : []));
    }),
  );
  router.get(
    '/guilds/:guild_id/bans/:user_id',
    guildRoute(deps, (ctx, caller) => ({ $case: 'getBan', getBan: banTarget(ctx, caller) })),
  );
  router.put(
    '/guilds/:guild_id/bans/:user_id',
    guildRoute(
      deps,
      async (ctx, caller) => {
        const userId = snowflakeParam(ctx, 'user_id');
        const form = validBody(ctx, 'BanCreateSchema');
        // discord.js sends the reason as the audit-log header, which Discord keeps as the ban's reason.
        const reason = form.reason ?? auditLogReason(ctx);
        const body = JSON.stringify(reason === undefined ? form : { ...form, reason });
        const userJson = await publicUserJson(deps, caller, userId);
        return { $case: 'putBan', putBan: { caller, userId, body, userJson } };
      },
      { needs: Permission.BAN_MEMBERS },
    ),
  );
  // Discord's bulk ban. The caller's rights are asked first: only then are up to 200 users looked up.
  const bulkBanners = guildProbe(deps, Permission.BAN_MEMBERS | Permission.MANAGE_GUILD);
  router.post(
    '/guilds/:guild_id/bulk-ban',
    guildRoute(
      deps,
      async (ctx, caller) => {
        const form = validBody(ctx, 'BulkBanSchema');
        await bulkBanners(ctx);
        const userJson: Record<string, string> = {};
        await Promise.all(
          [...new Set(form.user_ids)].map(async (userId) => {
            // A user Chorus does not know is left out, and the Guild lists it as failed.
            const known = await publicUserJson(deps, caller, userId).catch((error: unknown) => {
              if (error instanceof UnknownEntityError) return undefined;
              throw error;
            });
            if (known !== undefined) userJson[userId] = known;
          }),
        );
        const reason = form.reason ?? auditLogReason(ctx);
        const body = JSON.stringify(reason === undefined ? form : { ...form, reason });
        return { $case: 'bulkBan', bulkBan: { caller, body, userJson } };
      },
      { needs: Permission.BAN_MEMBERS | Permission.MANAGE_GUILD },
    ),
  );
  router.delete(
    '/guilds/:guild_id/bans/:user_id',
    guildRoute(deps, (ctx, caller) => ({ $case: 'deleteBan', deleteBan: banTarget(ctx, caller) })),
  );
  router.get(
    '/guilds/:guild_id/prune',
    guildRoute(
      deps,
      (ctx, caller) => ({
        $case: 'pruneCount',
        pruneCount: {
          caller,
          days: intQuery(ctx, 'days', 7, 1, 30),
          includeRoles: roleList(ctx.query['include_roles']),
          computePruneCount: true,
        },
      }),
      { needs: Permission.KICK_MEMBERS },
    ),
  );
  router.post(
    '/guilds/:guild_id/prune',
    guildRoute(
      deps,
      (ctx, caller) => {
        requireRight(caller, Right.KICK_BAN_MEMBERS, 'KICK_BAN_MEMBERS');
        const raw = (ctx.request as { body?: unknown }).body;
        // PruneSchema plus the fields Discord also reads from this body.
        const body: { days: number; compute_prune_count?: unknown; include_roles?: unknown } =
          raw === undefined ? { days: 7 } : validBody(ctx, 'PruneSchema');
        if (body.days < 1 || body.days > 30)
          throw ValidationError.field('days', 'NUMBER_TYPE_MAX', 'Must be between 1 and 30.');
        return {
          $case: 'prune',
          prune: {
            caller,
            days: body.days,
            includeRoles: roleList(body.include_roles),
            computePruneCount: body.compute_prune_count !== false,
          },
        };
      },
      { needs: Permission.KICK_MEMBERS },
    ),
  );
}
