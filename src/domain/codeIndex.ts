/**
 * Guild-owned things found by a global key (a template code, a sticker id) share the invite code
 * index (GuildStore.getInvite: code → guild), under prefixed keys. Invite codes never contain ':',
 * so these keys cannot collide with invites, and /invites/{code} can never reach them.
 */
const TEMPLATE_PREFIX = 'template:';
const STICKER_PREFIX = 'sticker:';

/** The index key of a guild template code. */
export function templateIndexKey(code: string): string {
  return `${TEMPLATE_PREFIX}${code}`;
}

/** The index key of a guild sticker id. */
export function stickerIndexKey(stickerId: string): string {
  return `${STICKER_PREFIX}${stickerId}`;
}

/** True for an index entry that is not a real invite (the guild's invite lists skip it). */
export function isIndexKey(code: string): boolean {
  return code.includes(':');
}
