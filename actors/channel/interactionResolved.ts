import { ValidationError } from '../../src/domain/errors.js';
import type { Caller } from '../../proto/gen/chorus/v1/common.js';
import { isJsonObject, parseJson, parseJsonObject, type JsonObject } from '../../src/domain/jsonValue.js';
import type { MessageRecord } from '../runtime/ports/records.js';
import { accessOf } from './channelAccess.js';
import { channelJson } from './channelJson.js';
import type { ChannelScope } from './ChannelScope.js';
import type { NamedIds } from './interactionOptions.js';

const unknownOption = (what: string): ValidationError =>
  ValidationError.field('data.options', 'INTERACTION_OPTION_UNKNOWN_ENTITY', `Unknown ${what}.`);

/** The member object of a user option (guild channels): the Guild's snapshot, without user, with permissions. */
async function memberOf(scope: ChannelScope, userId: string): Promise<JsonObject | undefined> {
  if (scope.channel.guild_id === null) return undefined;
  const access = await accessOf(scope.ctx, scope.channel, userId, scope.accessCache).catch(() => undefined);
  if (!access?.member || access.memberJson === '') return undefined;
  const member = parseJsonObject(access.memberJson);
  delete member['user'];
  return { ...member, permissions: access.permissions.toString() };
}

/** The guild's roles that `ids` name, by id (asked of the Guild, which owns them); 400 50035 for another id. */
async function rolesOf(scope: ChannelScope, caller: Caller, ids: ReadonlySet<string>): Promise<JsonObject> {
  const guildId = scope.channel.guild_id;
  if (guildId === null) throw unknownOption('role');
  const listRoles = { caller, targetId: '', withCounts: false };
  const reply = await scope.ctx.ask('guild', guildId, { command: { $case: 'listRoles', listRoles } });
  const parsed: unknown = reply.reply?.$case === 'json' ? parseJson(reply.reply.json.json) : [];
  const roles = Array.isArray(parsed) ? parsed.filter(isJsonObject) : [];
  const out: JsonObject = {};
  for (const id of ids) {
    const role = roles.find((candidate) => candidate['id'] === id);
    if (!role) throw unknownOption('role');
    out[id] = role;
  }
  return out;
}

/**
 * The `resolved` object of an invocation, built here from what the ids name (a client's own is never
 * trusted): users (and their members in a guild), roles and channels of this guild (or this DM), the
 * target message. 400 50035 for a user, role or channel that does not exist here.
 */
export async function resolveIds(
  scope: ChannelScope,
  caller: Caller,
  ids: NamedIds,
  target: MessageRecord | undefined,
): Promise<JsonObject | undefined> {
  const resolved: JsonObject = {};
  const userIds = [...ids.users, ...ids.mentionables];
  const roleIds = new Set(ids.roles);
  if (userIds.length > 0) {
    await scope.loadUsers(userIds);
    const users: JsonObject = {};
    const members: JsonObject = {};
    for (const id of userIds) {
      const user = scope.users.get(id);
      if (Object.keys(user).length <= 1) {
        if (ids.users.has(id)) throw unknownOption('user');
        roleIds.add(id); // a mentionable that is no user: a role
        continue;
      }
      users[id] = user;
      const member = await memberOf(scope, id);
      if (member) members[id] = member;
    }
    if (Object.keys(users).length > 0) resolved['users'] = users;
    if (Object.keys(members).length > 0) resolved['members'] = members;
  }
  if (ids.channels.size > 0) {
    const channels: JsonObject = {};
    for (const id of ids.channels) {
      const record = await scope.stores.channels.get(id);
      const here =
        record &&
        (record.id === scope.channel.id || (record.guild_id !== null && record.guild_id === scope.channel.guild_id));
      if (!record || !here) throw unknownOption('channel');
      channels[id] = { ...channelJson(record, '', (userId) => scope.users.get(userId)), permissions: '0' };
    }
    resolved['channels'] = channels;
  }
  if (roleIds.size > 0) resolved['roles'] = await rolesOf(scope, caller, roleIds);
  if (target) {
    const [message] = await scope.render([target], '');
    resolved['messages'] = { [target.id]: message };
  }
  return Object.keys(resolved).length === 0 ? undefined : resolved;
}
