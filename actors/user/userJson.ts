import type { UserRecord } from '../runtime/ports/records.js';

/** Discord's public user object (GET /users/{id}, member.user, DM recipients, OAuth2 and application owners). */
export function publicUser(user: UserRecord): Record<string, unknown> {
  return {
    id: user.id,
    username: user.username,
    discriminator: user.discriminator,
    global_name: user.global_name,
    avatar: user.avatar,
    avatar_decoration_data: null,
    banner: user.banner,
    accent_color: user.accent_color,
    public_flags: user.public_flags,
    // As on Discord (and the channel actor's snapshots): `bot` only when true.
    ...(user.bot ? { bot: true } : {}),
  };
}

/** The private (current) user object: GET /users/@me, READY.user, USER_UPDATE. */
export function privateUser(user: UserRecord): Record<string, unknown> {
  return {
    ...publicUser(user),
    email: user.email,
    verified: user.verified,
    flags: user.flags,
    premium_type: user.premium_type,
    premium: user.premium_type > 0,
    mfa_enabled: user.mfa_enabled,
    locale: user.locale,
    bio: user.bio,
    pronouns: user.pronouns,
    phone: null,
    nsfw_allowed: true,
    purchased_flags: 0,
  };
}

/** The `user_profile` part of UserProfileResponse. */
export function userProfile(user: UserRecord): Record<string, unknown> {
  return {
    bio: user.bio,
    accent_color: user.accent_color,
    banner: user.banner,
    pronouns: user.pronouns,
    theme_colors: user.theme_colors ?? null,
  };
}

/** The public fields whose change other users see (USER_UPDATE to guilds, member.user). */
export function publicFieldsChanged(before: UserRecord, after: UserRecord): boolean {
  return JSON.stringify(publicUser(before)) !== JSON.stringify(publicUser(after));
}
