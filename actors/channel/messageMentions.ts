import { InternalError } from '../../src/domain/errors.js';
import { can, type Access } from './channelAccess.js';
import type { ChannelScope } from './ChannelScope.js';
import {
  checkAllowedMentions,
  parseMentions,
  resolveMentions,
  type AllowedMentions,
  type ResolvedMentions,
} from './mentions.js';

/**
 * The mentions of a message written with `access` in this channel, as stored, returned and
 * dispatched: allowed_mentions checked and applied, @everyone/@here only with MENTION_EVERYONE (in
 * this channel, overwrites included), and role mentions narrowed by the Guild, which owns the roles:
 * unknown roles never ping, unmentionable ones only for an author holding MENTION_EVERYONE. Discord
 * keeps the text of a mention that does not ping; only the mention lists leave it out.
 */
export async function messageMentions(
  scope: ChannelScope,
  access: Access,
  content: string,
  allowed: AllowedMentions | undefined,
  repliedUserId?: string,
): Promise<ResolvedMentions> {
  checkAllowedMentions(allowed);
  const guildId = scope.channel.guild_id;
  const canMentionEveryone = can(access, 'MENTION_EVERYONE');
  const resolved = resolveMentions(parseMentions(content), allowed, {
    inGuild: guildId !== null,
    canMentionEveryone,
    ...(repliedUserId !== undefined ? { repliedUserId } : {}),
  });
  // Asked only when the message mentions roles (Channel -> Guild is the allowed call direction).
  if (guildId === null || resolved.roleIds.length === 0) return resolved;
  const reply = await scope.ctx.ask('guild', guildId, {
    command: {
      $case: 'mentionableRoles',
      mentionableRoles: { roleIds: resolved.roleIds, includeUnmentionable: canMentionEveryone },
    },
  });
  if (reply.reply?.$case !== 'roleIds') {
    throw new InternalError({
      cause: new Error(`Guild answered mentionableRoles with ${reply.reply?.$case ?? 'nothing'}`),
    });
  }
  return { ...resolved, roleIds: reply.reply.roleIds.ids };
}
