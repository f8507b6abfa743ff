import type { GuildCommand, GuildReply } from '../../proto/gen/chorus/v1/guild.js';
import type { BlobRemover } from '../../src/domain/BlobStore.js';
import { Actor } from '../runtime/Actor.js';
import type { ActorContext } from '../runtime/ActorContext.js';
import { dispatch, type HandlerTable } from '../runtime/commandTable.js';
import type { Stores } from '../runtime/ports/stores.js';
import type { SubscriptionStore } from '../runtime/ports/subscriptionStore.js';
import type { VoiceStateStore } from '../runtime/ports/voiceStateStore.js';
import { GuildRuntime } from './GuildRuntime.js';
import { GuildState } from './GuildState.js';
import * as channels from './guildChannels.js';
import { commandIndex } from './guildCommandIndex.js';
import { commandPermissions } from './guildCommandPermissions.js';
import * as emojis from './guildEmojis.js';
import * as extras from './guildExtras.js';
import { createFromTemplate } from './guildFromTemplate.js';
import * as invites from './guildInvites.js';
import * as lifecycle from './guildLifecycle.js';
import * as members from './guildMembers.js';
import * as membership from './guildMembership.js';
import * as moderation from './guildModeration.js';
import * as roles from './guildRoles.js';
import * as sessions from './guildSessions.js';
import { listPresences, memberPresence, nodeLeft } from './guildPresences.js';
import * as settings from './guildSettings.js';
import * as stickers from './guildStickers.js';
import * as templates from './guildTemplates.js';
import { refreshVoiceAccess, voiceStateChange } from './guildVoice.js';
import { restoreVoiceStates } from './guildVoiceRestore.js';
import { recheckVoiceRooms, voiceRoomMoved } from './voiceRoomTells.js';

type GuildCase = NonNullable<GuildCommand['command']>;

/**
 * Every Guild command's handler. Each takes the turn's runtime and its payload; create_guild and
 * create_from_template also take the guild id, which is the actor's key (a guild being created has
 * no state yet).
 */
const GUILD_HANDLERS: HandlerTable<GuildCase, GuildRuntime, GuildReply> = {
  createGuild: (rt, command) => lifecycle.createGuild(rt, rt.ctx.key, command),
  getGuild: lifecycle.getGuild,
  updateGuild: lifecycle.updateGuild,
  deleteGuild: async (rt, request) => {
    const reply = await lifecycle.deleteGuild(rt, request);
    rt.voiceStore.clear(); // a deleted guild's voice states are never read again
    return reply;
  },
  listChannels: channels.listChannels,
  getChannel: channels.getChannel,
  createChannel: channels.createChannel,
  reorderChannels: channels.reorderChannels,
  updateChannel: channels.updateChannel,
  deleteChannel: channels.deleteChannel,
  putOverwrite: channels.putOverwrite,
  deleteOverwrite: channels.deleteOverwrite,
  listRoles: roles.listRoles,
  createRole: roles.createRole,
  reorderRoles: roles.reorderRoles,
  updateRole: roles.updateRole,
  deleteRole: roles.deleteRole,
  mentionableRoles: roles.mentionableRoles,
  listMembers: members.listMembers,
  getMember: members.getMember,
  updateMember: members.updateMember,
  addMemberRole: members.addMemberRole,
  addRoleMembers: members.addRoleMembers,
  removeMemberRole: members.removeMemberRole,
  addMember: membership.addMember,
  removeMember: membership.removeMember,
  authorizeBot: membership.authorizeBot,
  createInvite: invites.createInvite,
  listInvites: invites.listInvites,
  listChannelInvites: invites.listChannelInvites,
  deleteInvite: invites.deleteInvite,
  getInvite: invites.getInvite,
  acceptInvite: invites.acceptInvite,
  channelAccess: sessions.channelAccess,
  subscribe: sessions.subscribe,
  unsubscribe: sessions.unsubscribe,
  activateSession: sessions.activateSession,
  dispatch: sessions.dispatch,
  checkPermission: sessions.checkPermission,
  userChanged: sessions.userChanged,
  memberPresence,
  listPresences,
  nodeLeft,
  voiceStateChange,
  voiceRoomMoved,
  getWidget: settings.getWidget,
  updateWidget: settings.updateWidget,
  getWidgetJson: settings.getWidgetJson,
  getWelcomeScreen: settings.getWelcomeScreen,
  updateWelcomeScreen: settings.updateWelcomeScreen,
  getVanityUrl: settings.getVanityUrl,
  updateVanityUrl: settings.updateVanityUrl,
  listBans: moderation.listBans,
  getBan: moderation.getBan,
  putBan: moderation.putBan,
  bulkBan: moderation.bulkBan,
  deleteBan: moderation.deleteBan,
  pruneCount: moderation.pruneCount,
  prune: moderation.prune,
  listEmojis: emojis.listEmojis,
  getEmoji: emojis.getEmoji,
  createEmoji: emojis.createEmoji,
  updateEmoji: emojis.updateEmoji,
  deleteEmoji: emojis.deleteEmoji,
  listStickers: stickers.listStickers,
  getSticker: stickers.getSticker,
  createSticker: stickers.createSticker,
  updateSticker: stickers.updateSticker,
  deleteSticker: stickers.deleteSticker,
  listTemplates: templates.listTemplates,
  createTemplate: templates.createTemplate,
  syncTemplate: templates.syncTemplate,
  updateTemplate: templates.updateTemplate,
  deleteTemplate: templates.deleteTemplate,
  getTemplate: templates.getTemplate,
  createFromTemplate: (rt, command) => createFromTemplate(rt, rt.ctx.key, command),
  templateUsed: templates.templateUsed,
  getPreview: extras.getPreview,
  roleMemberCounts: extras.roleMemberCounts,
  roleMemberIds: extras.roleMemberIds,
  updateMemberProfile: extras.updateMemberProfile,
  putMember: extras.putMember,
  updateVoiceState: extras.updateVoiceState,
  commandIndex,
  commandPermissions,
};

/**
 * One guild (key = guild id): its record, roles, members, channels and overwrites, invites, bans and
 * settings; permission computation for its channels; and the sessions subscribed to its dispatches.
 * It only tells other actors (Users, Channels, Sessions), never awaits them.
 */
export class GuildActor extends Actor<GuildCommand, GuildReply> {
  readonly #rt: GuildRuntime;

  constructor(
    private readonly ctx: ActorContext,
    private readonly stores: Stores,
    subscriptions: SubscriptionStore,
    blobs: BlobRemover,
    largeGuildMembers?: number,
    voiceStates?: VoiceStateStore,
  ) {
    super();
    this.#rt = new GuildRuntime(ctx, stores, subscriptions, blobs, largeGuildMembers, voiceStates);
    this.#rt.accessChanged = (userId) => {
      refreshVoiceAccess(this.#rt, userId);
    };
  }

  /**
   * Loads the guild and its session subscriptions (stored, so a guild with subscribers may passivate
   * and a guild re-activated on another node keeps fanning out), then the voice states of the sessions
   * still subscribed. A missing guild stays unloaded, so every command but create_guild answers 404 10004.
   */
  override async activate(): Promise<void> {
    const [state] = await Promise.all([GuildState.load(this.ctx.key, this.stores), this.#rt.subscriptions.load()]);
    this.#rt.setState(state);
    await restoreVoiceStates(this.#rt);
    recheckVoiceRooms(this.#rt);
  }

  /**
   * Tells the channels holding permission snapshots to drop them (the next activation knows no holders) and
   * lets the voice state writes land, so the next activation reads them back.
   */
  override async deactivate(): Promise<void> {
    this.#rt.releaseHolders();
    await this.#rt.voiceStore.flush();
  }

  override async handle({ command }: GuildCommand): Promise<GuildReply> {
    try {
      return await dispatch(GUILD_HANDLERS, this.#rt, command);
    } finally {
      sessions.afterCommand(this.#rt, command?.$case); // a changed guild drops its cached GUILD_CREATE parts
    }
  }
}
