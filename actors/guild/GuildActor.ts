import type { GuildCommand, GuildReply } from '../../proto/gen/chorus/v1/guild.js';
import type { BlobRemover } from '../../src/domain/BlobStore.js';
import { ValidationError } from '../../src/domain/errors.js';
import { Actor } from '../runtime/Actor.js';
import type { ActorContext } from '../runtime/ActorContext.js';
import type { Stores } from '../runtime/ports/stores.js';
import type { SubscriptionStore } from '../runtime/ports/subscriptionStore.js';
import { GuildRuntime } from './GuildRuntime.js';
import { GuildState } from './GuildState.js';
import * as channels from './guildChannels.js';
import { handleExtension, isExtensionCommand } from './guildExtensionCommands.js';
import * as invites from './guildInvites.js';
import * as lifecycle from './guildLifecycle.js';
import * as members from './guildMembers.js';
import * as membership from './guildMembership.js';
import * as moderation from './guildModeration.js';
import * as roles from './guildRoles.js';
import * as sessions from './guildSessions.js';
import * as settings from './guildSettings.js';

function assertNever(value: never): never {
  throw new ValidationError({ _errors: [{ code: 'UNKNOWN_COMMAND', message: `Unknown command ${String(value)}` }] });
}

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
  ) {
    super();
    this.#rt = new GuildRuntime(ctx, stores, subscriptions, blobs);
  }

  /**
   * Loads the guild and its session subscriptions (stored, so a guild with subscribers may passivate
   * and a guild re-activated on another node keeps fanning out). A missing guild stays unloaded, so
   * every command but create_guild answers 404 10004.
   */
  override async activate(): Promise<void> {
    const [state] = await Promise.all([GuildState.load(this.ctx.key, this.stores), this.#rt.subscriptions.load()]);
    this.#rt.setState(state);
  }

  /** Tells the channels holding permission snapshots to drop them: the next activation knows no holders. */
  override deactivate(): Promise<void> {
    this.#rt.releaseHolders();
    return Promise.resolve();
  }

  async handle({ command }: GuildCommand): Promise<GuildReply> {
    const rt = this.#rt;
    if (command === undefined)
      throw new ValidationError({ _errors: [{ code: 'EMPTY_COMMAND', message: 'No command' }] });
    if (isExtensionCommand(command)) return handleExtension(rt, this.ctx.key, command);
    switch (command.$case) {
      case 'createGuild':
        return lifecycle.createGuild(rt, this.ctx.key, command.createGuild);
      case 'getGuild':
        return lifecycle.getGuild(rt, command.getGuild);
      case 'updateGuild':
        return lifecycle.updateGuild(rt, command.updateGuild);
      case 'deleteGuild':
        return lifecycle.deleteGuild(rt, command.deleteGuild);
      case 'listChannels':
        return channels.listChannels(rt, command.listChannels);
      case 'getChannel':
        return channels.getChannel(rt, command.getChannel);
      case 'createChannel':
        return channels.createChannel(rt, command.createChannel);
      case 'reorderChannels':
        return channels.reorderChannels(rt, command.reorderChannels);
      case 'updateChannel':
        return channels.updateChannel(rt, command.updateChannel);
      case 'deleteChannel':
        return channels.deleteChannel(rt, command.deleteChannel);
      case 'putOverwrite':
        return channels.putOverwrite(rt, command.putOverwrite);
      case 'deleteOverwrite':
        return channels.deleteOverwrite(rt, command.deleteOverwrite);
      case 'listRoles':
        return roles.listRoles(rt, command.listRoles);
      case 'createRole':
        return roles.createRole(rt, command.createRole);
      case 'reorderRoles':
        return roles.reorderRoles(rt, command.reorderRoles);
      case 'updateRole':
        return roles.updateRole(rt, command.updateRole);
      case 'deleteRole':
        return roles.deleteRole(rt, command.deleteRole);
      case 'mentionableRoles':
        return roles.mentionableRoles(rt, command.mentionableRoles);
      case 'listMembers':
        return members.listMembers(rt, command.listMembers);
      case 'getMember':
        return members.getMember(rt, command.getMember);
      case 'updateMember':
        return members.updateMember(rt, command.updateMember);
      case 'addMemberRole':
        return members.addMemberRole(rt, command.addMemberRole);
      case 'removeMemberRole':
        return members.removeMemberRole(rt, command.removeMemberRole);
      case 'addMember':
        return membership.addMember(rt, command.addMember);
      case 'removeMember':
        return membership.removeMember(rt, command.removeMember);
      case 'authorizeBot':
        return membership.authorizeBot(rt, command.authorizeBot);
      case 'createInvite':
        return invites.createInvite(rt, command.createInvite);
      case 'listInvites':
        return invites.listInvites(rt, command.listInvites);
      case 'listChannelInvites':
        return invites.listChannelInvites(rt, command.listChannelInvites);
      case 'deleteInvite':
        return invites.deleteInvite(rt, command.deleteInvite);
      case 'getInvite':
        return invites.getInvite(rt, command.getInvite);
      case 'acceptInvite':
        return invites.acceptInvite(rt, command.acceptInvite);
      case 'channelAccess':
        return sessions.channelAccess(rt, command.channelAccess);
      case 'subscribe':
        return sessions.subscribe(rt, command.subscribe);
      case 'unsubscribe':
        return sessions.unsubscribe(rt, command.unsubscribe);
      case 'dispatch':
        return sessions.dispatch(rt, command.dispatch);
      case 'checkPermission':
        return sessions.checkPermission(rt, command.checkPermission);
      case 'userChanged':
        return sessions.userChanged(rt, command.userChanged);
      case 'getWidget':
        return settings.getWidget(rt, command.getWidget);
      case 'updateWidget':
        return settings.updateWidget(rt, command.updateWidget);
      case 'getWidgetJson':
        return settings.getWidgetJson(rt);
      case 'getWelcomeScreen':
        return settings.getWelcomeScreen(rt, command.getWelcomeScreen);
      case 'updateWelcomeScreen':
        return settings.updateWelcomeScreen(rt, command.updateWelcomeScreen);
      case 'getVanityUrl':
        return settings.getVanityUrl(rt, command.getVanityUrl);
      case 'updateVanityUrl':
        return settings.updateVanityUrl(rt, command.updateVanityUrl);
      case 'listBans':
        return moderation.listBans(rt, command.listBans);
      case 'getBan':
        return moderation.getBan(rt, command.getBan);
      case 'putBan':
        return moderation.putBan(rt, command.putBan);
      case 'deleteBan':
        return moderation.deleteBan(rt, command.deleteBan);
      case 'pruneCount':
        return moderation.pruneCount(rt, command.pruneCount);
      case 'prune':
        return moderation.prune(rt, command.prune);
      default:
        return assertNever(command);
    }
  }
}
