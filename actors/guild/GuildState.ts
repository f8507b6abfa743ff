import type { ChannelRecord, GuildRecord, MemberRecord, RoleRecord } from '../runtime/ports/records.js';
import type { Stores } from '../runtime/ports/stores.js';
import { parsePermissions, type Overwrite, type PermissionGuild } from '../../src/domain/permissions.js';
import { compareSnowflakes } from '../../src/domain/snowflake.js';
import { AccessHolders } from './AccessHolders.js';
import type { PublicPresence } from './guildPresences.js';
import type { VoiceState } from './guildVoice.js';

/**
 * The Guild actor's in-memory state: the guild record, its roles, members and channels, plus the
 * derived role → permission map kept current on every role change, so permission checks do no I/O.
 */
export class GuildState implements PermissionGuild {
  readonly roles = new Map<string, RoleRecord>();
  readonly members = new Map<string, MemberRecord>();
  readonly channels = new Map<string, ChannelRecord>();
  readonly rolePermissions = new Map<string, bigint>();
  /** Parsed overwrites per channel id, rebuilt when a channel is stored. */
  readonly #overwrites = new Map<string, Overwrite[]>();
  /**
   * Bumped whenever what a channel_access snapshot carries changes (roles, members, overwrites, owner).
   * Starts from the clock at activation (GuildRuntime.setState), so versions of successive
   * activations do not collide in a channel's cache.
   */
  version = 1;
  /** Channels holding snapshots, told when they change (not stored: a new activation holds nobody). */
  readonly accessHolders = new AccessHolders();
  /**
   * Public presences of the members who are not offline, by user id. Not stored: a new activation
   * starts empty and fills as users announce a change (see guildPresences.ts).
   */
  readonly presences = new Map<string, PublicPresence>();
  /** Members connected to a voice channel, by user id. Not stored either (see guildVoice.ts). */
  readonly voiceStates = new Map<string, VoiceState>();

  constructor(public guild: GuildRecord) {}

  /** Loads the guild and everything the actor keeps in memory; undefined when the guild does not exist. */
  static async load(id: string, stores: Stores): Promise<GuildState | undefined> {
    const guild = await stores.guilds.getGuild(id);
    if (!guild) return undefined;
    const [roles, members, channels] = await Promise.all([
      stores.guilds.listRoles(id),
      stores.guilds.listMembers(id),
      stores.channels.listByGuild(id),
    ]);
    const state = new GuildState(guild);
    for (const role of roles) state.putRole(role);
    for (const member of members) state.members.set(member.user_id, member);
    for (const channel of channels) state.putChannel(channel);
    return state;
  }

  get id(): string {
    return this.guild.id;
  }

  get ownerId(): string {
    return this.guild.owner_id;
  }

  /** The @everyone role (its id is the guild id). */
  get everyone(): RoleRecord | undefined {
    return this.roles.get(this.guild.id);
  }

  putRole(role: RoleRecord): void {
    this.roles.set(role.id, role);
    this.rolePermissions.set(role.id, parsePermissions(role.permissions));
  }

  dropRole(roleId: string): void {
    this.roles.delete(roleId);
    this.rolePermissions.delete(roleId);
  }

  putChannel(channel: ChannelRecord): void {
    this.channels.set(channel.id, channel);
    this.#overwrites.set(
      channel.id,
      channel.permission_overwrites.map((o) => ({
        id: o.id,
        type: o.type,
        allow: parsePermissions(o.allow),
        deny: parsePermissions(o.deny),
      })),
    );
  }

  /** Forgets a deleted channel, and that it held snapshots (its actor drops them with its record). */
  dropChannel(channelId: string): void {
    this.channels.delete(channelId);
    this.#overwrites.delete(channelId);
    this.accessHolders.takeChannel(channelId);
  }

  /** Parsed overwrites of a channel ([] for an unknown one). */
  overwritesOf(channelId: string): readonly Overwrite[] {
    return this.#overwrites.get(channelId) ?? [];
  }

  /** Roles sorted as Discord lists them: by position, then by id. */
  sortedRoles(): RoleRecord[] {
    return [...this.roles.values()].sort((a, b) => a.position - b.position || compareSnowflakes(a.id, b.id));
  }

  /** Channels sorted by position, then id. */
  sortedChannels(): ChannelRecord[] {
    return [...this.channels.values()].sort((a, b) => a.position - b.position || compareSnowflakes(a.id, b.id));
  }

  /** Members sorted by user id (the order `after` pages through). */
  sortedMembers(): MemberRecord[] {
    return [...this.members.values()].sort((a, b) => compareSnowflakes(a.user_id, b.user_id));
  }
}
