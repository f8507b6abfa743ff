import type { Caller } from '../../proto/gen/chorus/v1/common.js';
import type { GuildReply } from '../../proto/gen/chorus/v1/guild.js';
import { deleteBlobsAfterCommit, type BlobRemover } from '../../src/domain/BlobStore.js';
import { UnauthorizedError, UnknownEntityError } from '../../src/domain/errors.js';
import type { ActorContext } from '../runtime/ActorContext.js';
import { ActorKind } from '../runtime/ActorKind.js';
import type { ChannelRecord } from '../runtime/ports/records.js';
import type { Stores } from '../runtime/ports/stores.js';
import type { SubscriptionStore } from '../runtime/ports/subscriptionStore.js';
import type { VoiceStateStore } from '../runtime/ports/voiceStateStore.js';
import { GuildFanout, dispatchEvent } from './GuildFanout.js';
import type { GatedEvent } from '../../src/domain/intents.js';
import type { GuildState } from './GuildState.js';
import { GuildSubscriptions } from './GuildSubscriptions.js';
import { GuildVoiceStore } from './GuildVoiceStore.js';
import { canView, viewerTest } from './guildPermissions.js';
import { channelJson } from './guildJson.js';
import type { GuildCreateText } from './guildCreateText.js';

/** Discord's large_threshold for user accounts; CHORUS_LARGE_GUILD_MEMBERS sets it. */
export const DEFAULT_LARGE_GUILD_MEMBERS = 250;

/** A `json` reply; the document is serialized here, once. */
export function jsonReply(value: unknown): GuildReply {
  return { reply: { $case: 'json', json: { json: JSON.stringify(value) } } };
}

/** An `empty` reply (the edge answers 204). */
export function emptyReply(): GuildReply {
  return { reply: { $case: 'empty', empty: {} } };
}

/** The calling user's id; a command without a caller cannot have come through the edge. */
export function callerId(caller: Caller | undefined): string {
  if (!caller?.userId) throw new UnauthorizedError();
  return caller.userId;
}

/**
 * What the Guild actor's handlers share: its state, storage ports, the actor context and the fan-out,
 * plus the side effects every mutation repeats (dispatch, invalidating channel snapshots, telling
 * channel actors their record changed).
 */
export class GuildRuntime {
  #state: GuildState | undefined;
  readonly fanout: GuildFanout;
  /** Subscribe and unsubscribe through this (it writes them through), never through `fanout`. */
  readonly subscriptions: GuildSubscriptions;
  /** Where voice states are written through (guildVoice.ts changes them, activation reads them back). */
  readonly voiceStore: GuildVoiceStore;
  /**
   * Runs after permissions changed (all members' when `userId` is '', else one member's): the Guild actor has
   * guildVoice re-check connected members (CONNECT lost, SPEAK changed). A hook, as guildVoice imports this file.
   */
  accessChanged: (userId: string) => void = () => undefined;
  /**
   * This activation's GUILD_CREATE text cache (made by guildSessions.subscribe on the first subscribe).
   * Cleared by guildSessions.afterCommand after every command that may change what a GUILD_CREATE shows.
   */
  guildCreateText: GuildCreateText | undefined;
  /**
   * When this activation last read its stored channels for last_message_id (nowMs()); undefined until the
   * first subscribe reads them. Reset by guildSessions.afterCommand whenever guildCreateText is cleared.
   */
  channelsReadAtMs: number | undefined;

  constructor(
    readonly ctx: ActorContext,
    readonly stores: Stores,
    subscriptionStore: SubscriptionStore,
    private readonly blobs: BlobRemover,
    /** Above this many members the guild is large: passive sessions, presences to bots only (config). */
    readonly largeGuildMembers = DEFAULT_LARGE_GUILD_MEMBERS,
    voiceStateStore?: VoiceStateStore,
  ) {
    const member = (userId: string) => this.#state?.members.get(userId);
    this.fanout = new GuildFanout(
      (ids, event) => {
        ctx.fanOut(ids, event);
      },
      {
        large: () => (this.#state?.members.size ?? 0) > largeGuildMembers,
        isBot: (userId) => member(userId)?.user['bot'] === true,
        hasAnyRole: (userId, roleIds) => member(userId)?.roles.some((roleId) => roleIds.has(roleId)) === true,
      },
    );
    this.subscriptions = new GuildSubscriptions(this.fanout, subscriptionStore, ctx.key);
    this.voiceStore = new GuildVoiceStore(voiceStateStore, ctx.key, ctx.log);
  }

  /** The loaded guild; 404 10004 when it does not exist (or was deleted). */
  get state(): GuildState {
    if (!this.#state) throw new UnknownEntityError('guild');
    return this.#state;
  }

  get exists(): boolean {
    return this.#state !== undefined;
  }

  /**
   * Adopts a loaded (or created) guild. Its snapshot version starts from the clock (µs-like: ms × 1000,
   * room for 1000 changes per ms of the activation's life), so it exceeds every version an earlier
   * activation gave out and a channel never confuses snapshots of two activations.
   */
  setState(state: GuildState | undefined): void {
    if (state) state.version = Math.max(state.version, this.ctx.clock.now() * 1000);
    this.#state = state;
    this.fanout.recountBots();
  }

  nowMs(): number {
    return this.ctx.clock.now();
  }

  nowIso(): string {
    return new Date(this.ctx.clock.now()).toISOString();
  }

  /**
   * Dispatches to every subscribed session whose intents allow it (the intent `name` needs in a
   * guild, src/domain/intents.ts) and whose user passes `audience`.
   */
  emit(name: GatedEvent, data: unknown, audience?: (userId: string) => boolean, alwaysUserId = ''): void {
    this.fanout.send(dispatchEvent(name, data), audience, alwaysUserId);
  }

  /** Dispatches to the sessions whose user may view the channel. */
  emitInChannel(name: GatedEvent, data: unknown, channelId: string): void {
    this.emit(name, data, viewerTest(this.state, channelId));
  }

  /** Subscribed users who can view the channel now (taken before a change, for emitChannelChange). */
  viewersOf(channelId: string): Set<string> {
    const state = this.state;
    const viewers = new Set<string>();
    for (const userId of this.fanout.subscribedUsers()) if (canView(state, userId, channelId)) viewers.add(userId);
    return viewers;
  }

  /**
   * Tells subscribers about a changed channel by what changed for them: CHANNEL_UPDATE to those who
   * saw it and still do, CHANNEL_CREATE to those who now see it, CHANNEL_DELETE to those who lost it.
   */
  emitChannelChange(channel: ChannelRecord, viewersBefore: ReadonlySet<string>): void {
    const state = this.state;
    const json = channelJson(channel);
    const seesNow = (userId: string): boolean => canView(state, userId, channel.id);
    this.emit('CHANNEL_UPDATE', json, (u) => viewersBefore.has(u) && seesNow(u));
    this.emit('CHANNEL_CREATE', json, (u) => !viewersBefore.has(u) && seesNow(u));
    this.emit('CHANNEL_DELETE', json, (u) => viewersBefore.has(u) && !seesNow(u));
  }

  /**
   * Something every member's snapshot depends on changed (a role's permissions, the owner): bumps
   * the version and tells every channel holding snapshots to drop them all (tell only; a Guild never
   * awaits a Channel). Only holders are told, so idle channels are not woken.
   */
  permissionsChanged(): void {
    const state = this.state;
    this.#invalidate(state.accessHolders.takeAll(), '');
    this.accessChanged('');
  }

  /**
   * What one member's snapshot carries changed: their roles, timeout or member object (nick, avatar,
   * user), or they joined or left. The channels holding that user's snapshot drop it.
   */
  memberChanged(userId: string): void {
    const state = this.state;
    this.#invalidate(state.accessHolders.takeUser(userId), userId);
    this.accessChanged(userId);
  }

  /** A channel's overwrites changed: that channel drops every snapshot it holds. */
  channelPermissionsChanged(channelId: string): void {
    const state = this.state;
    this.#invalidate(state.accessHolders.takeChannel(channelId) ? [channelId] : [], '');
    this.accessChanged('');
  }

  /**
   * The activation stops (passivation, eviction, shutdown): its holders drop their snapshots, since
   * the next activation knows no holders and would not tell them of later changes.
   */
  releaseHolders(): void {
    if (this.exists) this.#invalidate(this.state.accessHolders.takeAll(), '');
  }

  #invalidate(channelIds: readonly string[], userId: string): void {
    const state = this.state;
    state.version += 1;
    const invalidateAccess = { version: String(state.version), userId };
    for (const channelId of channelIds) {
      this.ctx.tell(ActorKind.Channel, channelId, { command: { $case: 'invalidateAccess', invalidateAccess } });
    }
  }

  /** Tells the channel actor its record changed (the record as JSON); `channel` undefined means it was deleted. */
  tellChannelChanged(channelId: string, channel: ChannelRecord | undefined): void {
    const json = channel ? JSON.stringify(channel) : '';
    this.ctx.tell(ActorKind.Channel, channelId, {
      command: { $case: 'channelChanged', channelChanged: { channelJson: json } },
    });
  }

  /**
   * Writes a channel record through. The channel actor owns last_message_id and last_pin_timestamp,
   * so those are taken from the stored record rather than from this actor's copy.
   */
  async saveChannel(channel: ChannelRecord): Promise<void> {
    const stored = await this.stores.channels.get(channel.id);
    if (stored) {
      channel.last_message_id = stored.last_message_id;
      channel.last_pin_timestamp = stored.last_pin_timestamp;
    }
    await this.stores.channels.save(channel);
    this.state.putChannel(channel);
  }

  /** Deletes the images (icons, banners) a committed change stopped referencing, so their URLs answer 404. */
  deleteImages(keys: readonly string[]): Promise<void> {
    return deleteBlobsAfterCommit(this.blobs, this.ctx.log, keys);
  }

  /** Tells the User actor about a membership change, so it forwards it to the user's sessions. */
  tellUser(userId: string, joined: boolean): void {
    const guildId = this.state.id;
    this.ctx.tell(
      ActorKind.User,
      userId,
      joined
        ? { command: { $case: 'joinedGuild', joinedGuild: { guildId } } }
        : { command: { $case: 'leftGuild', leftGuild: { guildId } } },
    );
  }
}
