import type {
  GuildBodyRequest,
  GuildReply,
  GuildRequest,
  MentionableRoles,
  RoleTarget,
} from '../../proto/gen/chorus/v1/guild.js';
import {
  BadRequestError,
  MissingPermissionsError,
  UnknownEntityError,
  ValidationError,
} from '../../src/domain/errors.js';
import { Permission, parsePermissions } from '../../src/domain/permissions.js';
import type { RoleModifyBody, RolePositionUpdateBody } from '../../src/contract/guild.js';
import type { RoleRecord } from '../runtime/ports/records.js';
import { replacedImageKeys } from '../../src/domain/blobKeys.js';
import { imageHash } from '../../src/domain/imageHash.js';
import type { GuildRuntime } from './GuildRuntime.js';
import { callerId, emptyReply, jsonReply } from './GuildRuntime.js';
import type { GuildState } from './GuildState.js';
import { roleJson } from './guildJson.js';
import { canManageRole, requireGrantable, requireGuildPermission, requireMember } from './guildPermissions.js';
import { orderRoles } from './roleOrder.js';
import { bodyOf } from '../../src/contract/bodyOf.js';
import { RoleModifySchema, RolePositionUpdateSchema } from '../../src/contract/index.js';

/** Discord's cap on roles per guild (30005 beyond it). */
const MAX_ROLES = 250;

function requireRole(state: GuildState, roleId: string): RoleRecord {
  const role = state.roles.get(roleId);
  if (!role) throw new UnknownEntityError('role');
  return role;
}

/** The role must sit below the actor's highest role (the owner may manage every role). */
function requireManageable(state: GuildState, actorId: string, role: RoleRecord): void {
  if (!canManageRole(state, actorId, role)) throw new MissingPermissionsError('ROLE_HIERARCHY');
}

/** Applies the optional display fields of a RoleModifySchema body. */
function applyDisplay(role: RoleRecord, body: RoleModifyBody): void {
  if (body.name !== undefined) {
    if (body.name.length > 100)
      throw ValidationError.field('name', 'BASE_TYPE_MAX_LENGTH', 'Must be 100 or fewer in length.');
    role.name = body.name;
  }
  // Newer clients send `colors: {primary_color}` instead of `color`.
  const colors = (body as { colors?: { primary_color?: unknown } }).colors;
  if (body.color === undefined && typeof colors?.primary_color === 'number')
    body = { ...body, color: colors.primary_color };
  if (body.color !== undefined) {
    if (body.color < 0 || body.color > 0xffffff)
      throw ValidationError.field('color', 'NUMBER_TYPE_MAX', 'Must be 0..16777215.');
    role.color = body.color;
  }
  if (body.hoist !== undefined) role.hoist = body.hoist;
  if (body.mentionable !== undefined) role.mentionable = body.mentionable;
  if (body.icon !== undefined) role.icon = imageHash('icon', body.icon || null);
  if (body.unicode_emoji !== undefined) role.unicode_emoji = body.unicode_emoji || null;
}

/** Saves roles whose position changed and tells GUILD_ROLE_UPDATE for each. */
async function saveMoved(rt: GuildRuntime, moved: readonly RoleRecord[]): Promise<void> {
  const state = rt.state;
  for (const role of moved) {
    await rt.stores.guilds.saveRole(role);
    state.putRole(role);
  }
  for (const role of moved) rt.emit('GUILD_ROLE_UPDATE', { guild_id: state.id, role: roleJson(role) });
}

/** Stores a new role just above @everyone, as Discord creates them: every other role moves up by one. */
export async function insertRoleAtBottom(rt: GuildRuntime, role: RoleRecord): Promise<void> {
  const state = rt.state;
  const shifted = state
    .sortedRoles()
    .filter((r) => r.id !== state.id)
    .map((r) => ({ ...r, position: r.position + 1 }));
  role.position = 1;
  await rt.stores.guilds.saveRole(role);
  state.putRole(role);
  rt.emit('GUILD_ROLE_CREATE', { guild_id: state.id, role: roleJson(role) });
  await saveMoved(rt, shifted);
}

/** list_roles, or get one role when target_id is set (404 10011). */
export function listRoles(rt: GuildRuntime, request: GuildRequest): GuildReply {
  const state = rt.state;
  requireMember(state, callerId(request.caller));
  if (request.targetId) return jsonReply(roleJson(requireRole(state, request.targetId)));
  return jsonReply(state.sortedRoles().map(roleJson));
}

/** create_role (MANAGE_ROLES; only permissions the actor holds): created just above @everyone. */
export async function createRole(rt: GuildRuntime, request: GuildBodyRequest): Promise<GuildReply> {
  const state = rt.state;
  const actorId = callerId(request.caller);
  requireGuildPermission(state, actorId, Permission.MANAGE_ROLES);
  const body = bodyOf(RoleModifySchema, request.body);
  // Discord's default for a new role: the @everyone role's permissions.
  const permissions = parsePermissions(body.permissions ?? state.everyone?.permissions);
  requireGrantable(state, actorId, permissions);
  if (state.roles.size >= MAX_ROLES) throw new BadRequestError('Maximum number of guild roles reached (250)', 30_005);
  const role: RoleRecord = {
    id: rt.ctx.ids.next(),
    guild_id: state.id,
    name: 'new role',
    permissions: permissions.toString(),
    color: 0,
    hoist: false,
    mentionable: false,
    managed: false,
    position: 1,
    icon: null,
    unicode_emoji: null,
    flags: 0,
  };
  applyDisplay(role, body);
  await insertRoleAtBottom(rt, role);
  return jsonReply(roleJson(role));
}

/** update_role (MANAGE_ROLES; the role below the actor's highest; only permissions the actor holds). */
export async function updateRole(rt: GuildRuntime, target: RoleTarget): Promise<GuildReply> {
  const state = rt.state;
  const actorId = callerId(target.caller);
  requireGuildPermission(state, actorId, Permission.MANAGE_ROLES);
  const current = requireRole(state, target.roleId);
  const isEveryone = current.id === state.id;
  if (!isEveryone) requireManageable(state, actorId, current);
  const body = bodyOf(RoleModifySchema, target.body);
  const role: RoleRecord = { ...current };
  // @everyone keeps its name; its permissions and display fields can change.
  const display: RoleModifyBody = { ...body };
  if (isEveryone) delete display.name;
  applyDisplay(role, display);
  let permissionsChanged = false;
  if (body.permissions !== undefined) {
    const next = parsePermissions(body.permissions);
    const before = parsePermissions(current.permissions);
    if (current.managed && next !== before) throw new MissingPermissionsError('MANAGED_ROLE');
    requireGrantable(state, actorId, next & ~before);
    role.permissions = next.toString();
    permissionsChanged = next !== before;
  }
  await rt.stores.guilds.saveRole(role);
  state.putRole(role);
  rt.emit('GUILD_ROLE_UPDATE', { guild_id: state.id, role: roleJson(role) });
  if (body.position !== undefined && !isEveryone && body.position !== role.position) {
    await moveRoles(rt, actorId, [{ id: role.id, position: body.position }]);
  }
  if (permissionsChanged) rt.permissionsChanged();
  await rt.deleteImages(replacedImageKeys('role-icons', role.id, current.icon, role.icon));
  return jsonReply(roleJson(state.roles.get(role.id) ?? role));
}

/** delete_role (MANAGE_ROLES, hierarchy): not @everyone nor a managed role (400); members and overwrites lose it. */
export async function deleteRole(rt: GuildRuntime, target: RoleTarget): Promise<GuildReply> {
  const state = rt.state;
  const actorId = callerId(target.caller);
  requireGuildPermission(state, actorId, Permission.MANAGE_ROLES);
  const role = requireRole(state, target.roleId);
  if (role.id === state.id) throw new BadRequestError('Cannot delete the @everyone role', 50_028);
  if (role.managed) throw new BadRequestError('Cannot delete a managed role', 50_028);
  requireManageable(state, actorId, role);
  await rt.stores.guilds.deleteRole(state.id, role.id);
  state.dropRole(role.id);
  for (const member of [...state.members.values()].filter((m) => m.roles.includes(role.id))) {
    const next = { ...member, roles: member.roles.filter((id) => id !== role.id) };
    await rt.stores.guilds.saveMember(next);
    state.members.set(next.user_id, next);
  }
  for (const channel of [...state.channels.values()].filter((c) =>
    c.permission_overwrites.some((o) => o.id === role.id),
  )) {
    const viewers = rt.viewersOf(channel.id);
    const next = { ...channel, permission_overwrites: channel.permission_overwrites.filter((o) => o.id !== role.id) };
    await rt.saveChannel(next);
    rt.emitChannelChange(next, viewers);
    rt.tellChannelChanged(next.id, next);
  }
  rt.emit('GUILD_ROLE_DELETE', { guild_id: state.id, role_id: role.id });
  rt.permissionsChanged();
  await rt.deleteImages(replacedImageKeys('role-icons', role.id, role.icon, null));
  return emptyReply();
}

/** reorder_roles (MANAGE_ROLES): every moved role must stay below the actor's highest role. */
export async function reorderRoles(rt: GuildRuntime, request: GuildBodyRequest): Promise<GuildReply> {
  const state = rt.state;
  const actorId = callerId(request.caller);
  requireGuildPermission(state, actorId, Permission.MANAGE_ROLES);
  const items = bodyOf(RolePositionUpdateSchema, request.body);
  items.forEach((item, index) => {
    if (!state.roles.has(item.id))
      throw ValidationError.field(`${index}.id`, 'ROLE_INVALID', 'Unknown role in this guild.');
  });
  await moveRoles(rt, actorId, items);
  return jsonReply(state.sortedRoles().map(roleJson));
}

/**
 * Moves roles; each listed role must sit below the actor's highest role before and after the move
 * (compared in the new order, so renumbering cannot smuggle a role above the actor).
 */
async function moveRoles(rt: GuildRuntime, actorId: string, items: RolePositionUpdateBody): Promise<void> {
  const state = rt.state;
  const ordered = orderRoles(state.sortedRoles(), state.id, items);
  const owner = actorId === state.ownerId;
  const actorRoles = new Set(state.members.get(actorId)?.roles ?? []);
  let ceilingAfter = 0;
  for (const role of ordered) if (actorRoles.has(role.id)) ceilingAfter = Math.max(ceilingAfter, role.position);
  for (const item of items) {
    const before = state.roles.get(item.id);
    const after = ordered.find((role) => role.id === item.id);
    if (!before || !after || owner) continue;
    if (!canManageRole(state, actorId, before) || after.position >= ceilingAfter) {
      throw new MissingPermissionsError('ROLE_HIERARCHY');
    }
  }
  await saveMoved(
    rt,
    ordered.filter((role) => role.position !== state.roles.get(role.id)?.position),
  );
}

/**
 * mentionable_roles (Channel -> Guild): the role mentions of a message that ping. Discord keeps the
 * text of the others but leaves them out of mention_roles: unknown roles, @everyone's (the guild id),
 * and roles not marked mentionable unless the author holds MENTION_EVERYONE.
 */
export function mentionableRoles(rt: GuildRuntime, command: MentionableRoles): GuildReply {
  const state = rt.state;
  const pings = (id: string): boolean => {
    const role = state.roles.get(id);
    return role !== undefined && id !== state.id && (command.includeUnmentionable || role.mentionable);
  };
  return { reply: { $case: 'roleIds', roleIds: { ids: command.roleIds.filter(pings) } } };
}
