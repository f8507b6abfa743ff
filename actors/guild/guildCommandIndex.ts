import type { CommandIndex, GuildReply } from '../../proto/gen/chorus/v1/guild.js';
import {
  mayUseGuildCommand,
  usableInGuilds,
  type CommandPermissionOverride,
  type GuildCommandUser,
} from '../../src/domain/commandAccess.js';
import { commandIndexJson, type IndexEntry } from '../../src/domain/commandIndex.js';
import { UnknownEntityError } from '../../src/domain/errors.js';
import { isJsonObject } from '../../src/domain/jsonValue.js';
import { GLOBAL_SCOPE } from '../runtime/ports/applicationCommandStore.js';
import type { ApplicationRecord } from '../runtime/ports/records.js';
import { callerId, jsonReply, type GuildRuntime } from './GuildRuntime.js';
import { memberPermissions, permissionsIn, requireMember, requireVisibleChannel } from './guildPermissions.js';

/**
 * The scope under which a guild's command permission overrides are stored in the ApplicationCommandStore,
 * one record per command (or per application, keyed by its id, for application-wide overrides). The Guild
 * actor is their only writer, so its serial turns order the writes.
 */
export function permissionsScope(guildId: string): string {
  return `permissions:${guildId}`;
}

/** An application whose bot is a member of the guild, with the bot's public user record. */
export interface GuildApplication {
  readonly app: ApplicationRecord;
  readonly bot: Record<string, unknown>;
}

/** The applications whose bots are members of the guild (Chorus has no command-only integrations). */
export async function guildApplications(rt: GuildRuntime): Promise<GuildApplication[]> {
  const bots = [...rt.state.members.values()].filter((member) => member.user['bot'] === true);
  const found = await Promise.all(
    bots.map(async (member) => {
      const app = await rt.stores.applications.findByBotUser(member.user_id);
      return app ? { app, bot: member.user } : undefined;
    }),
  );
  return found.filter((entry) => entry !== undefined);
}

/** The guild's overrides for one application's commands, by command id (the application id: app-wide). */
export async function overridesOf(
  rt: GuildRuntime,
  applicationId: string,
): Promise<Map<string, CommandPermissionOverride[]>> {
  const records = await rt.stores.applicationCommands.list(applicationId, permissionsScope(rt.state.id));
  return new Map(records.map((record) => [record.id, overridesIn(record.data['permissions'])]));
}

/** The overrides of a stored permissions object (checked at the edge when written). */
function overridesIn(value: unknown): CommandPermissionOverride[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isJsonObject).map((entry) => ({
    id: String(entry['id']),
    type: Number(entry['type']),
    permission: entry['permission'] === true,
  }));
}

/** The commands of one application usable in this guild: its global ones that allow guilds, then the guild's. */
async function commandsOf(rt: GuildRuntime, applicationId: string): Promise<Record<string, unknown>[]> {
  const [global, local] = await Promise.all([
    rt.stores.applicationCommands.list(applicationId, GLOBAL_SCOPE),
    rt.stores.applicationCommands.list(applicationId, rt.state.id),
  ]);
  return [...global.filter((record) => usableInGuilds(record.data)), ...local].map((record) => record.data);
}

/**
 * GET /guilds/{id}/application-command-index and, for a guild channel, /channels/{id}/application-command-index:
 * the commands of the guild's applications the caller may use (in `channel_id` when set, which the caller must
 * see), filtered by command permissions v2 (commandAccess.ts). With `command_id`, only that command; 404 10063
 * when the caller may not use it there. Non-members get 404 10004.
 */
export async function commandIndex(rt: GuildRuntime, request: CommandIndex): Promise<GuildReply> {
  const state = rt.state;
  const userId = callerId(request.caller);
  const member = requireMember(state, userId);
  const channelId = request.channelId;
  const channel = channelId === '' ? undefined : requireVisibleChannel(state, userId, channelId);
  const who: GuildCommandUser = {
    guildId: state.id,
    channelId,
    userId,
    roleIds: member.roles,
    permissions: channelId === '' ? memberPermissions(state, userId) : permissionsIn(state, userId, channelId),
    ...(channel ? { ageRestricted: channel.fields['nsfw'] === true } : {}),
  };
  const entries: IndexEntry[] = await Promise.all(
    (await guildApplications(rt)).map(async ({ app, bot }) => {
      const [commands, overrides] = await Promise.all([commandsOf(rt, app.id), overridesOf(rt, app.id)]);
      const usable = commands.filter(
        (command) =>
          (request.commandId === '' || command['id'] === request.commandId) &&
          mayUseGuildCommand(
            command,
            { command: overrides.get(String(command['id'])) ?? [], application: overrides.get(app.id) ?? [] },
            who,
          ),
      );
      const application = { ...app, bot };
      return { application, commands: usable };
    }),
  );
  const index = commandIndexJson(entries);
  if (request.commandId !== '' && index.application_commands.length === 0) {
    throw new UnknownEntityError('application command');
  }
  return jsonReply(index);
}
