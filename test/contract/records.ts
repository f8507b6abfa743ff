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
} from '../../actors/runtime/ports/records.js';
import { SnowflakeGenerator, snowflakeTimestampMs } from '../../src/domain/snowflake.js';

/** Record builders: every field filled with a plausible default, ids fresh from one generator. */

const ids = new SnowflakeGenerator(1);

/** A fresh snowflake, greater than every one returned before. */
export function nextId(): string {
  return ids.next();
}

function isoOf(id: string): string {
  return new Date(snowflakeTimestampMs(id)).toISOString();
}

export function aUser(overrides: Partial<UserRecord> = {}): UserRecord {
  const id = overrides.id ?? nextId();
  return {
    id,
    username: `user_${id}`,
    discriminator: '0001',
    global_name: null,
    email: `user_${id}@example.test`,
    password_hash: 'scrypt$16384$8$1$c2FsdA$aGFzaA',
    avatar: null,
    banner: null,
    bio: '',
    accent_color: null,
    pronouns: '',
    bot: false,
    flags: 0,
    public_flags: 0,
    premium_type: 0,
    verified: true,
    mfa_enabled: false,
    locale: 'en-US',
    rights: '0',
    token_generation: 0,
    revoked_tokens: [],
    settings: { theme: 'dark' },
    guild_settings: {},
    notes: {},
    relationships: {},
    created_at: isoOf(id),
    ...overrides,
  };
}

export function anApplication(overrides: Partial<ApplicationRecord> = {}): ApplicationRecord {
  const id = overrides.id ?? nextId();
  return {
    id,
    owner_id: nextId(),
    name: `app ${id}`,
    description: '',
    icon: null,
    bot_user_id: null,
    bot_public: true,
    bot_require_code_grant: false,
    flags: 0,
    verify_key: 'a'.repeat(64),
    extra: {},
    ...overrides,
  };
}

export function aGuild(overrides: Partial<GuildRecord> = {}): GuildRecord {
  const id = overrides.id ?? nextId();
  return {
    id,
    owner_id: nextId(),
    name: `guild ${id}`,
    icon: null,
    fields: { description: null, features: [], system_channel_id: null },
    created_at: isoOf(id),
    ...overrides,
  };
}

/** A guild text channel unless overridden. */
export function aChannel(overrides: Partial<ChannelRecord> = {}): ChannelRecord {
  const id = overrides.id ?? nextId();
  return {
    id,
    guild_id: nextId(),
    type: 0,
    name: 'general',
    position: 0,
    parent_id: null,
    permission_overwrites: [],
    recipient_ids: [],
    owner_id: null,
    last_message_id: null,
    last_pin_timestamp: null,
    fields: { topic: null, nsfw: false, rate_limit_per_user: 0 },
    created_at: isoOf(id),
    ...overrides,
  };
}

/** A 1:1 DM channel between two users. */
export function aDmChannel(userA: string, userB: string, overrides: Partial<ChannelRecord> = {}): ChannelRecord {
  return aChannel({ guild_id: null, type: 1, name: null, recipient_ids: [userA, userB], fields: {}, ...overrides });
}

/** A group DM owned by its first recipient. */
export function aGroupDm(recipientIds: string[], overrides: Partial<ChannelRecord> = {}): ChannelRecord {
  return aChannel({
    guild_id: null,
    type: 3,
    name: 'group',
    recipient_ids: recipientIds,
    owner_id: recipientIds[0] ?? null,
    fields: { icon: null },
    ...overrides,
  });
}

export function aRole(overrides: Partial<RoleRecord> & Pick<RoleRecord, 'guild_id'>): RoleRecord {
  return {
    id: nextId(),
    name: 'role',
    permissions: '1024',
    color: 0,
    hoist: false,
    mentionable: false,
    managed: false,
    position: 1,
    icon: null,
    unicode_emoji: null,
    flags: 0,
    ...overrides,
  };
}

export function aMember(overrides: Partial<MemberRecord> & Pick<MemberRecord, 'guild_id'>): MemberRecord {
  const userId = overrides.user_id ?? nextId();
  return {
    user_id: userId,
    nick: null,
    avatar: null,
    roles: [],
    joined_at: new Date().toISOString(),
    deaf: false,
    mute: false,
    pending: false,
    communication_disabled_until: null,
    flags: 0,
    bio: '',
    user: { id: userId, username: `user_${userId}`, discriminator: '0001', avatar: null },
    ...overrides,
  };
}

export function anInvite(overrides: Partial<InviteRecord> & Pick<InviteRecord, 'guild_id'>): InviteRecord {
  return {
    code: `c${nextId()}`,
    channel_id: nextId(),
    inviter_id: nextId(),
    max_age: 86_400,
    max_uses: 0,
    uses: 0,
    temporary: false,
    created_at: new Date().toISOString(),
    ...overrides,
  };
}

export function aMessage(overrides: Partial<MessageRecord> & Pick<MessageRecord, 'channel_id'>): MessageRecord {
  const id = overrides.id ?? nextId();
  const authorId = overrides.author_id ?? nextId();
  return {
    id,
    guild_id: null,
    author_id: authorId,
    type: 0,
    content: `message ${id}`,
    tts: false,
    mention_everyone: false,
    mention_ids: [],
    mention_role_ids: [],
    embeds: [],
    attachments: [],
    components: [],
    sticker_ids: [],
    nonce: null,
    pinned: false,
    flags: 0,
    message_reference: null,
    edited_timestamp: null,
    timestamp: isoOf(id),
    webhook_id: null,
    author_json: JSON.stringify({ id: authorId, username: 'author', discriminator: '0001', avatar: null }),
    ...overrides,
  };
}

export function aReaction(
  overrides: Partial<ReactionRecord> & Pick<ReactionRecord, 'channel_id' | 'message_id'>,
): ReactionRecord {
  return { emoji: '👍', user_id: nextId(), created_at: new Date().toISOString(), ...overrides };
}
