import type { Router } from '@koa/router';
import type { Caller } from '../../../proto/gen/chorus/v1/common.js';
import { ValidationError } from '../../domain/errors.js';
import { Permission } from '../../domain/permissions.js';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { bodyFor, intQuery, requireCaller, sendObject, sendReply, snowflakeParam } from '../routeKit.js';
import { solidPng } from '../solidPng.js';
import { askGuild, guildRoute, publicUserJson } from './guildRouteKit.js';
import { searchGuildMessages } from './messageSearch.js';
import { NO_PERMISSION_SUFFICES } from './permissionFirst.js';

/** widget.png sizes by `style` (Discord's styles; shield is the default). */
const WIDGET_STYLES: Readonly<Record<string, readonly [number, number]>> = {
  shield: [76, 20],
  banner1: [320, 76],
  banner2: [320, 76],
  banner3: [320, 100],
  banner4: [320, 120],
};
/** Discord's blurple. */
const WIDGET_COLOUR = { r: 0x58, g: 0x65, b: 0xf2 };

/** The route's `{user_id}` / `{member_id}`, with "@me" meaning the caller. */
function userParam(ctx: EdgeContext, caller: Caller, name: string): string {
  return ctx.params[name] === '@me' ? caller.userId : snowflakeParam(ctx, name);
}

/** Every value of a repeatable query parameter (`?author_id=1&author_id=2`), each a snowflake. */
function snowflakeList(ctx: EdgeContext, name: string): string[] {
  const raw = ctx.query[name];
  const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return values.map((value) => {
    if (!/^\d{1,20}$/.test(value))
      throw ValidationError.field(name, 'NUMBER_TYPE_COERCE', `Value "${value}" is not snowflake.`);
    return value;
  });
}

function stringQuery(ctx: EdgeContext, name: string): string {
  const raw = ctx.query[name];
  return (Array.isArray(raw) ? raw[0] : raw) ?? '';
}

/** Guild routes beside the core ones: widget image, preview, role counts, member profile, voice state, direct adds, search. */
export function guildExtrasRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  // Like widget.json: any signed-in user (401 without a token, as the spec's "all B" says); 403 50004
  // while the widget is disabled.
  router.get('/guilds/:guild_id/widget.png', async (ctx: EdgeContext) => {
    await requireCaller(ctx, deps);
    const guildId = snowflakeParam(ctx, 'guild_id');
    const style = stringQuery(ctx, 'style') || 'shield';
    const size = WIDGET_STYLES[style];
    if (!size) {
      throw ValidationError.field(
        'style',
        'BASE_TYPE_CHOICES',
        `Value must be one of ${Object.keys(WIDGET_STYLES).join(', ')}.`,
      );
    }
    await askGuild(deps, guildId, { $case: 'getWidgetJson', getWidgetJson: { targetId: '', withCounts: false } });
    ctx.status = 200;
    ctx.type = 'image/png';
    ctx.body = solidPng(size[0], size[1], WIDGET_COLOUR);
  });
  router.get(
    '/guilds/:guild_id/roles/member-counts',
    guildRoute(deps, (_ctx, caller) => ({
      $case: 'roleMemberCounts',
      roleMemberCounts: { caller, targetId: '', withCounts: false },
    })),
  );
  router.get(
    '/guilds/:guild_id/preview',
    guildRoute(deps, (_ctx, caller) => ({
      $case: 'getPreview',
      getPreview: { caller, targetId: '', withCounts: false },
    })),
  );
  router.patch(
    '/guilds/:guild_id/voice-states/:user_id',
    guildRoute(
      deps,
      (ctx, caller) => ({
        $case: 'updateVoiceState',
        updateVoiceState: {
          caller,
          userId: userParam(ctx, caller, 'user_id'),
          body: bodyFor(ctx, 'VoiceStateUpdateSchema'),
        },
      }),
      // Your own voice state needs membership; another member's, MUTE_MEMBERS.
      { needs: (ctx, caller) => (userParam(ctx, caller, 'user_id') === caller.userId ? 0n : Permission.MUTE_MEMBERS) },
    ),
  );
  router.patch(
    '/guilds/:guild_id/profile/:member_id',
    guildRoute(
      deps,
      (ctx, caller) => ({
        $case: 'updateMemberProfile',
        updateMemberProfile: {
          caller,
          userId: userParam(ctx, caller, 'member_id'),
          body: bodyFor(ctx, 'MemberChangeProfileSchema'),
        },
      }),
      // Only your own guild profile, whatever you hold.
      { needs: (ctx, caller) => (userParam(ctx, caller, 'member_id') === caller.userId ? 0n : NO_PERMISSION_SUFFICES) },
    ),
  );
  // Adds a user without an invite: 201 with the member, 204 when already a member (see the Guild's put_member).
  router.put('/guilds/:guild_id/members/:member_id', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    const guildId = snowflakeParam(ctx, 'guild_id');
    const userId = userParam(ctx, caller, 'member_id');
    const userJson = await publicUserJson(deps, caller, userId);
    sendReply(ctx, await askGuild(deps, guildId, { $case: 'putMember', putMember: { caller, userId, userJson } }), 201);
  });
  router.get('/guilds/:guild_id/messages/search', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    const guildId = snowflakeParam(ctx, 'guild_id');
    const result = await searchGuildMessages(deps, caller, guildId, {
      content: stringQuery(ctx, 'content'),
      authorIds: snowflakeList(ctx, 'author_id'),
      channelIds: snowflakeList(ctx, 'channel_id'),
      mentions: snowflakeList(ctx, 'mentions'),
      limit: intQuery(ctx, 'limit', 25, 1, 25),
      offset: intQuery(ctx, 'offset', 0, 0, 5000),
      oldestFirst: stringQuery(ctx, 'sort_order') === 'asc',
    });
    sendObject(ctx, result);
  });
}
