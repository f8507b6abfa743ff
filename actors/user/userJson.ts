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

/**
 * The private (current) user object: GET /users/@me, READY.user, USER_UPDATE. Fields are added to the
 * public object one by one: spreading it into a new literal took V8's slow clone path (about 16 µs per
 * call against 0.4, and every User activation serializes it).
 */
export function privateUser(user: UserRecord): Record<string, unknown> {
  const json = publicUser(user);
  json['email'] = user.email;
  json['verified'] = user.verified;
  json['flags'] = user.flags;
  json['premium_type'] = user.premium_type;
  json['premium'] = user.premium_type > 0;
  json['mfa_enabled'] = user.mfa_enabled;
  json['locale'] = user.locale;
  json['bio'] = user.bio;
  json['pronouns'] = user.pronouns;
  json['phone'] = null;
  json['nsfw_allowed'] = true;
  json['purchased_flags'] = 0;
  return json;
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
