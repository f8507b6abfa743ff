import type { Caller } from '../../proto/gen/chorus/v1/common.js';
import {
  ForbiddenError,
  InternalError,
  MissingAccessError,
  MissingPermissionsError,
  UnauthorizedError,
  UnknownEntityError,
} from '../../src/domain/errors.js';
import { Permission, parsePermissions, type PermissionName } from '../../src/domain/permissions.js';
import type { ActorContext } from '../runtime/ActorContext.js';
import type { ChannelRecord } from '../runtime/ports/records.js';
import type { AccessCache } from './AccessCache.js';

/** What one user may do in this channel, from the Guild's snapshot (or the DM recipient list). */
export interface Access {
  readonly userId: string;
  readonly permissions: bigint;
  /** A member of the channel's guild, or a recipient of the DM. */
  readonly member: boolean;
  /** The member object as JSON for events (guild channels; '' in DMs). */
  readonly memberJson: string;
}

/**
 * What a DM or group-DM recipient may do: read, write, react and pin, but not manage other users'
 * messages (Discord has no moderators in private channels).
 */
export const DM_PERMISSIONS =
  Permission.VIEW_CHANNEL |
  Permission.SEND_MESSAGES |
  Permission.SEND_TTS_MESSAGES |
  Permission.EMBED_LINKS |
  Permission.ATTACH_FILES |
  Permission.READ_MESSAGE_HISTORY |
  Permission.ADD_REACTIONS |
  Permission.USE_EXTERNAL_EMOJIS |
  Permission.USE_EXTERNAL_STICKERS |
  Permission.PIN_MESSAGES;

/** The caller of a client command; 401 when the edge sent none. */
export function requireCaller(caller: Caller | undefined): Caller {
  if (caller === undefined || caller.userId === '') throw new UnauthorizedError();
  return caller;
}

/**
 * The access of `userId`, requiring VIEW_CHANNEL: the Guild's snapshot (from `cache`, else asked of
 * the Guild and cached; the Guild owns roles and overwrites), or the DM recipient list. A user who
 * cannot view gets 403 50001 when they are a member (they know the channel exists), 404 10003 otherwise.
 */
export async function viewAccess(
  ctx: ActorContext,
  channel: ChannelRecord,
  userId: string,
  cache: AccessCache,
): Promise<Access> {
  const access = await accessOf(ctx, channel, userId, cache);
  if ((access.permissions & Permission.VIEW_CHANNEL) === 0n) {
    throw access.member ? new MissingAccessError() : new UnknownEntityError('channel');
  }
  return access;
}

/**
 * The access of `userId` without requiring VIEW_CHANNEL (an application's own permissions, for
 * `app_permissions`); 403 50001 in a DM the user is not a recipient of.
 */
export async function accessOf(
  ctx: ActorContext,
  channel: ChannelRecord,
  userId: string,
  cache: AccessCache,
): Promise<Access> {
  if (channel.guild_id === null) {
    const member = channel.recipient_ids.includes(userId);
    if (!member) throw new MissingAccessError();
    return { userId, permissions: DM_PERMISSIONS, member, memberJson: '' };
  }
  const cached = cache.get(userId, ctx.clock.now());
  if (cached !== undefined) return cached;
  let reply;
  try {
    reply = await ctx.ask('guild', channel.guild_id, {
      command: { $case: 'channelAccess', channelAccess: { channelId: channel.id, userId } },
    });
  } catch (error) {
    // The guild is gone (or never had this channel): to the client the channel is unknown.
    if (error instanceof UnknownEntityError) throw new UnknownEntityError('channel');
    throw error;
  }
  if (reply.reply?.$case !== 'channelAccess') {
    throw new InternalError({
      cause: new Error(`Guild answered channelAccess with ${reply.reply?.$case ?? 'nothing'}`),
    });
  }
  const snapshot = reply.reply.channelAccess;
  const access: Access = {
    userId,
    permissions: parsePermissions(snapshot.permissions),
    member: snapshot.member,
    memberJson: snapshot.memberJson,
  };
  cache.put(access, snapshot, ctx.clock.now());
  return access;
}

/** True when the access holds the permission. */
export function can(access: Access, name: PermissionName): boolean {
  return (access.permissions & Permission[name]) !== 0n;
}

/** Requires a permission; 403 50013 naming it otherwise. */
export function requirePermission(access: Access, name: PermissionName): void {
  if (!can(access, name)) throw new MissingPermissionsError(name);
}

/**
 * check_permission (from the edge, before it reports an invalid body): one of the bits of `anyOf`,
 * a decimal mask ("0": viewing the channel is enough); 403 50013 naming the lowest otherwise.
 */
export function requireAnyOf(access: Access, anyOf: string): void {
  const bits = parsePermissions(anyOf);
  if (bits === 0n || (access.permissions & bits) !== 0n) return;
  const lowest = (Object.keys(Permission) as PermissionName[]).find((name) => (bits & Permission[name]) !== 0n);
  throw new MissingPermissionsError(lowest);
}

/** Refuses moderation actions in DMs and group DMs (Discord 50003). */
export function requireGuildChannel(channel: ChannelRecord): void {
  if (channel.guild_id === null) throw new ForbiddenError('Cannot execute action on a DM channel', 50_003);
}
