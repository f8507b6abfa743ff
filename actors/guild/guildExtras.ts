import type { GuildReply, GuildRequest, MemberTarget, PutMember } from '../../proto/gen/chorus/v1/guild.js';
import { MissingPermissionsError, UnknownEntityError, ValidationError } from '../../src/domain/errors.js';
import { compareSnowflakes } from '../../src/domain/snowflake.js';
import { Permission, hasAll } from '../../src/domain/permissions.js';
import { Right, hasRight } from '../../src/domain/rights.js';
import type { MemberRecord } from '../runtime/ports/records.js';
import { imageHash } from '../../src/domain/imageHash.js';
import type { GuildRuntime } from './GuildRuntime.js';
import { callerId, emptyReply, jsonReply } from './GuildRuntime.js';
import { guildEmojisJson, guildStickersJson } from './expressionRecords.js';
import { memberJson } from './guildJson.js';
import { userSnapshot } from './guildLifecycle.js';
import { requireTarget, saveMember } from './guildMembers.js';
import { admitMember } from './guildMembership.js';
import { updateStageVoiceState } from './guildVoice.js';
import { memberPermissions, requireGuildPermission, requireMember } from './guildPermissions.js';
import { bodyOf } from '../../src/contract/bodyOf.js';
import { MemberChangeProfileSchema, VoiceStateUpdateSchema } from '../../src/contract/index.js';

/** Discord's per-guild profile limits. */
const MAX_PROFILE_BIO = 190;
const MAX_PRONOUNS = 40;
const MAX_NICK = 32;

/** get_preview (members; Chorus has no discovery, so outsiders get 404 10004 as for an undiscoverable guild). */
export function getPreview(rt: GuildRuntime, request: GuildRequest): GuildReply {
  const state = rt.state;
  requireMember(state, callerId(request.caller));
  const fields = state.guild.fields;
  return jsonReply({
    id: state.id,
    name: state.guild.name,
    icon: state.guild.icon,
    splash: fields['splash'] ?? null,
    discovery_splash: fields['discovery_splash'] ?? null,
    emojis: guildEmojisJson(state.guild),
    features: fields['features'] ?? [],
    approximate_member_count: state.members.size,
    approximate_presence_count: rt.fanout.userCount,
    description: fields['description'] ?? null,
    stickers: guildStickersJson(state.guild),
  });
}

/** role_member_counts (members): role id → members holding it; @everyone is left out, as on Discord. */
export function roleMemberCounts(rt: GuildRuntime, request: GuildRequest): GuildReply {
  const state = rt.state;
  requireMember(state, callerId(request.caller));
  const counts: Record<string, number> = {};
  for (const role of state.sortedRoles()) if (role.id !== state.id) counts[role.id] = 0;
  for (const member of state.members.values()) {
    for (const roleId of member.roles) if (roleId in counts) counts[roleId] = (counts[roleId] ?? 0) + 1;
  }
  return jsonReply(counts);
}

/** Member ids role_member_ids answers at most (Discord's client route). */
const ROLE_MEMBER_IDS_MAX = 100;

/** role_member_ids (members): up to 100 ids of the members holding the role, in id order; 404 10011 for no role. */
export function roleMemberIds(rt: GuildRuntime, request: GuildRequest): GuildReply {
  const state = rt.state;
  requireMember(state, callerId(request.caller));
  if (!state.roles.has(request.targetId)) throw new UnknownEntityError('role');
  const holders = [...state.members.values()]
    .filter((member) => request.targetId === state.id || member.roles.includes(request.targetId))
    .map((member) => member.user_id)
    .sort(compareSnowflakes);
  return jsonReply(holders.slice(0, ROLE_MEMBER_IDS_MAX));
}

function profileJson(guildId: string, member: MemberRecord): Record<string, unknown> {
  return {
    guild_id: guildId,
    nick: member.nick,
    avatar: member.avatar,
    banner: member.banner ?? null,
    bio: member.bio,
    pronouns: member.pronouns ?? '',
    theme_colors: member.theme_colors ?? null,
    accent_color: null,
  };
}

function checkedLength(value: string, max: number, field: string): string {
  if (value.length > max)
    throw ValidationError.field(field, 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length.`);
  return value;
}

/**
 * update_member_profile: the caller's own guild profile only (403 50013 for anyone else's); a nick
 * needs CHANGE_NICKNAME (or MANAGE_NICKNAMES), as through PATCH .../members/@me. GUILD_MEMBER_UPDATE follows.
 */
export async function updateMemberProfile(rt: GuildRuntime, target: MemberTarget): Promise<GuildReply> {
  const state = rt.state;
  const actorId = callerId(target.caller);
  const current = requireMember(state, actorId);
  if (target.userId !== actorId) throw new MissingPermissionsError('SELF_ONLY');
  const body = bodyOf(MemberChangeProfileSchema, target.body);
  const next: MemberRecord = { ...current };
  if (body.nick !== undefined) {
    const held = memberPermissions(state, actorId);
    if (!hasAll(held, Permission.CHANGE_NICKNAME) && !hasAll(held, Permission.MANAGE_NICKNAMES)) {
      throw new MissingPermissionsError('CHANGE_NICKNAME');
    }
    const nick = checkedLength(body.nick.trim(), MAX_NICK, 'nick');
    next.nick = nick === '' ? null : nick;
  }
  if (body.bio !== undefined) next.bio = checkedLength(body.bio, MAX_PROFILE_BIO, 'bio');
  if (body.pronouns !== undefined) next.pronouns = checkedLength(body.pronouns, MAX_PRONOUNS, 'pronouns');
  if (body.banner !== undefined) next.banner = imageHash('banner', body.banner);
  if (body.theme_colors !== undefined) {
    body.theme_colors.forEach((color, index) => {
      if (color < 0 || color > 0xffffff) {
        throw ValidationError.field(`theme_colors.${index}`, 'NUMBER_TYPE_MAX', 'Must be 0..16777215.');
      }
    });
    next.theme_colors = [...body.theme_colors];
  }
  await saveMember(rt, next);
  return jsonReply(profileJson(state.id, next));
}

/**
 * put_member: Discord adds a user through a bot holding the user's OAuth2 `guilds.join` token; Chorus
 * issues no such tokens, so only the guild owner holding the instance right ADD_MEMBERS (or OPERATOR)
 * may add a user directly. An existing member answers empty (204), as on Discord; others get 403 50013.
 */
export async function putMember(rt: GuildRuntime, command: PutMember): Promise<GuildReply> {
  const state = rt.state;
  const actorId = callerId(command.caller);
  requireMember(state, actorId);
  if (state.members.has(command.userId)) return emptyReply();
  if (actorId !== state.ownerId) throw new MissingPermissionsError('OWNER');
  if (!hasRight(BigInt(command.caller?.rights || '0'), Right.ADD_MEMBERS))
    throw new MissingPermissionsError('ADD_MEMBERS');
  const member = await admitMember(rt, command.userId, userSnapshot(command.userJson, command.userId));
  return jsonReply(memberJson(member));
}

/**
 * update_voice_state (PATCH /guilds/{id}/voice-states/@me and /{user_id}): the stage fields of a connected
 * member's voice state (guildVoice.ts updateStageVoiceState); someone else's needs MUTE_MEMBERS.
 */
export function updateVoiceState(rt: GuildRuntime, target: MemberTarget): GuildReply {
  const state = rt.state;
  const actorId = callerId(target.caller);
  requireMember(state, actorId);
  requireTarget(state, target.userId);
  if (target.userId !== actorId) requireGuildPermission(state, actorId, Permission.MUTE_MEMBERS);
  updateStageVoiceState(rt, actorId, target.userId, bodyOf(VoiceStateUpdateSchema, target.body));
  return emptyReply();
}
