import { MissingPermissionsError, ValidationError } from '../../src/domain/errors.js';
import { Permission, hasAll } from '../../src/domain/permissions.js';
import type { GuildRecord } from '../runtime/ports/records.js';
import type { GuildRuntime } from './GuildRuntime.js';
import type { GuildState } from './GuildState.js';
import { memberPermissions, requireMember } from './guildPermissions.js';

/**
 * Who may create an emoji or sticker: MANAGE_GUILD_EXPRESSIONS (the spec's MANAGE_EMOJIS_AND_STICKERS),
 * or CREATE_GUILD_EXPRESSIONS, which Discord added for members who manage only their own.
 * 404 for non-members, 403 50013 otherwise.
 */
export function requireCreateExpressions(state: GuildState, actorId: string): void {
  requireMember(state, actorId);
  const held = memberPermissions(state, actorId);
  if (hasAll(held, Permission.MANAGE_GUILD_EXPRESSIONS) || hasAll(held, Permission.CREATE_GUILD_EXPRESSIONS)) return;
  throw new MissingPermissionsError('MANAGE_GUILD_EXPRESSIONS');
}

/** Editing or deleting one: MANAGE_GUILD_EXPRESSIONS, or CREATE_GUILD_EXPRESSIONS for the caller's own. */
export function requireManageExpression(state: GuildState, actorId: string, creatorId: string): void {
  requireMember(state, actorId);
  const held = memberPermissions(state, actorId);
  if (hasAll(held, Permission.MANAGE_GUILD_EXPRESSIONS)) return;
  if (creatorId === actorId && hasAll(held, Permission.CREATE_GUILD_EXPRESSIONS)) return;
  throw new MissingPermissionsError('MANAGE_GUILD_EXPRESSIONS');
}

/**
 * The emoji or sticker a caller edits or deletes: 404 for a non-member (before the expression is
 * looked up, so outsiders learn nothing), then `find`'s 404, then requireManageExpression.
 */
export function managedExpression<T extends { readonly user_id: string }>(
  state: GuildState,
  actorId: string,
  find: (state: GuildState) => T,
): T {
  requireMember(state, actorId);
  const current = find(state);
  requireManageExpression(state, actorId, current.user_id);
  return current;
}

/** True when the caller sees creators (`user`) on REST emoji and sticker objects, as Discord shows managers. */
export function seesCreators(state: GuildState, actorId: string): boolean {
  const held = memberPermissions(state, actorId);
  return hasAll(held, Permission.MANAGE_GUILD_EXPRESSIONS) || hasAll(held, Permission.CREATE_GUILD_EXPRESSIONS);
}

/** The public user record of a creator who is still a member (the guild keeps no other user data). */
export function creatorUser(state: GuildState, userId: string): Record<string, unknown> | undefined {
  return state.members.get(userId)?.user;
}

/** Writes one private field of the guild record through (no GUILD_UPDATE: the caller tells its own event). */
export async function saveGuildField(rt: GuildRuntime, key: string, value: unknown): Promise<void> {
  const state = rt.state;
  const guild: GuildRecord = { ...state.guild, fields: { ...state.guild.fields, [key]: value } };
  await rt.stores.guilds.saveGuild(guild);
  state.guild = guild;
}

/** Role ids an emoji is restricted to must be roles of this guild (50035 naming the bad item). */
export function checkRoleIds(state: GuildState, roles: readonly string[]): string[] {
  roles.forEach((roleId, index) => {
    if (!state.roles.has(roleId) || roleId === state.id) {
      throw ValidationError.field(`roles.${index}`, 'ROLE_INVALID', 'Not a role of this guild.');
    }
  });
  return [...new Set(roles)];
}
