import type {
  ApplicationRecord,
  ChannelRecord,
  GuildRecord,
  InviteRecord,
  MemberRecord,
  MessageRecord,
  ReactionRecord,
  RoleRecord,
  UserRecord,
  WebhookRecord,
} from './records.js';
import type { ApplicationCommandStore } from './applicationCommandStore.js';
import type { ReadStateStore } from './readStateStore.js';
import type { InstanceCounter } from '../../../src/domain/InstanceCounter.js';

/**
 * Storage ports, one per aggregate, declared here by the actors that need them and implemented in
 * src/store (SQLite, Cassandra). Every write is durable when its promise resolves (write-through).
 * Implementations throw ConflictError for uniqueness violations and ServiceUnavailableError when the
 * engine cannot take the write; they never half-write a record.
 */

/** Accounts and their unique logins. */
export interface UserStore {
  /** Inserts a new user; ConflictError when the email or username#discriminator is taken. */
  create(user: UserRecord): Promise<void>;
  get(id: string): Promise<UserRecord | undefined>;
  /** Looks a user up by lower-cased email. */
  findByEmail(email: string): Promise<UserRecord | undefined>;
  /** Looks a user up by username and discriminator (for relationship requests and login by tag). */
  findByTag(username: string, discriminator: string): Promise<UserRecord | undefined>;
  /** Replaces the record; ConflictError when a changed email or tag is taken. */
  update(user: UserRecord): Promise<void>;
}

/** Applications and bots. */
export interface ApplicationStore {
  create(application: ApplicationRecord): Promise<void>;
  get(id: string): Promise<ApplicationRecord | undefined>;
  update(application: ApplicationRecord): Promise<void>;
  listByOwner(ownerId: string): Promise<ApplicationRecord[]>;
  /** The application whose bot user this is. */
  findByBotUser(botUserId: string): Promise<ApplicationRecord | undefined>;
}

/** A guild and everything the Guild actor owns, loaded and written per record. */
export interface GuildStore {
  getGuild(id: string): Promise<GuildRecord | undefined>;
  saveGuild(guild: GuildRecord): Promise<void>;
  /** Deletes the guild with its channels, roles, members and invites. */
  deleteGuild(id: string): Promise<void>;
  listRoles(guildId: string): Promise<RoleRecord[]>;
  saveRole(role: RoleRecord): Promise<void>;
  deleteRole(guildId: string, roleId: string): Promise<void>;
  listMembers(guildId: string): Promise<MemberRecord[]>;
  saveMember(member: MemberRecord): Promise<void>;
  deleteMember(guildId: string, userId: string): Promise<void>;
  /** Guilds the user is a member of. */
  guildIdsOfUser(userId: string): Promise<string[]>;
  listInvites(guildId: string): Promise<InviteRecord[]>;
  getInvite(code: string): Promise<InviteRecord | undefined>;
  /** Inserts or replaces an invite; ConflictError when a new code is already taken by another invite. */
  saveInvite(invite: InviteRecord): Promise<void>;
  deleteInvite(code: string): Promise<void>;
}

/** The fields of a channel its Channel actor writes, apart from the rest of the record (see saveOwnerFields). */
export interface ChannelOwnerFields {
  readonly last_message_id: string | null;
  readonly last_pin_timestamp: string | null;
}

/** Channels of every type, and DM indexes. */
export interface ChannelStore {
  get(id: string): Promise<ChannelRecord | undefined>;
  save(channel: ChannelRecord): Promise<void>;
  /**
   * Writes the fields the Channel actor owns (`channel` names the rows: its id, guild and recipients),
   * without reading and rewriting the whole record where the store can (the caller never writes an
   * older last_message_id than it wrote before). A channel deleted meanwhile stays deleted. Whether they win over a later whole-record save's
   * copy (the Guild saves the values it last saw) is the store's: the Channel actor writes them again
   * when told of such a save.
   */
  saveOwnerFields(channel: ChannelRecord, fields: ChannelOwnerFields): Promise<void>;
  delete(id: string): Promise<void>;
  listByGuild(guildId: string): Promise<ChannelRecord[]>;
  /** DM and group-DM channels the user is a recipient of. */
  listPrivate(userId: string): Promise<ChannelRecord[]>;
  /** The 1:1 DM channel between two users, if one exists. */
  findDm(userA: string, userB: string): Promise<ChannelRecord | undefined>;
}

/** Which page of a channel's messages to read; newest first. */
export interface MessagePage {
  readonly limit: number;
  readonly before?: string;
  readonly after?: string;
}

/** Messages of a channel, partitioned by time bucket; reactions and pins beside them. */
export interface MessageStore {
  insert(message: MessageRecord): Promise<void>;
  update(message: MessageRecord): Promise<void>;
  get(channelId: string, messageId: string): Promise<MessageRecord | undefined>;
  /** Deletes messages and their reactions. */
  delete(channelId: string, messageIds: readonly string[]): Promise<void>;
  /** A page, newest first: ids < before, or ids > after (the `limit` closest to `after`), or the newest. */
  list(channelId: string, page: MessagePage): Promise<MessageRecord[]>;
  /** Pinned messages, newest pin first. */
  listPinned(channelId: string): Promise<MessageRecord[]>;
  addReaction(reaction: ReactionRecord): Promise<void>;
  /** Removes one user's reaction, or every reaction of an emoji (userId undefined), or all (emoji undefined). */
  removeReactions(channelId: string, messageId: string, emoji?: string, userId?: string): Promise<void>;
  /** Reactions on a message, in the order they were added. */
  listReactions(channelId: string, messageId: string): Promise<ReactionRecord[]>;
  /**
   * Reactions on each of a page's messages (listReactions of each, in the order of `messageIds`), where the
   * backend reads them in one query; without it a page costs one listReactions per message.
   */
  listPageReactions?(channelId: string, messageIds: readonly string[]): Promise<ReactionRecord[][]>;
}

/** Channel webhooks, read by id (the edge's lookup), by channel and by guild. */
export interface WebhookStore {
  create(webhook: WebhookRecord): Promise<void>;
  /** Replaces name and avatar; a webhook that does not exist is left absent. */
  update(webhook: WebhookRecord): Promise<void>;
  get(id: string): Promise<WebhookRecord | undefined>;
  listByChannel(channelId: string): Promise<WebhookRecord[]>;
  listByGuild(guildId: string): Promise<WebhookRecord[]>;
  delete(id: string): Promise<void>;
}

/** All ports, as the composition root hands them to actor factories. */
export interface Stores {
  readonly users: UserStore;
  readonly applications: ApplicationStore;
  readonly applicationCommands: ApplicationCommandStore;
  readonly guilds: GuildStore;
  readonly channels: ChannelStore;
  readonly messages: MessageStore;
  readonly webhooks: WebhookStore;
  readonly readStates: ReadStateStore;
  /** Instance counts (GET /policies/stats/), where the backend counts cheaply; absent: not counted. */
  readonly counts?: InstanceCounter;
  /** Closes connections (node shutdown). */
  close(): Promise<void>;
}
