import { ValidationError } from '../../src/domain/errors.js';

/** Names Discord refuses because they would read as mentions or system text. */
const RESERVED = new Set(['everyone', 'here', 'discordtag', 'system message']);

/**
 * A username as stored: trimmed, 2..32 characters, without `@ # :` or code fences (which would break
 * mentions and `name#1234` logins), and not a reserved word; 50035 on `field` otherwise.
 */
export function checkUsername(raw: string, field: string): string {
  const name = raw.trim().replace(/\s+/g, ' ');
  if (name.length < 2 || name.length > 32) {
    throw ValidationError.field(field, 'BASE_TYPE_BAD_LENGTH', 'Must be between 2 and 32 in length.');
  }
  if (/[@#:]|```/.test(name) || RESERVED.has(name.toLowerCase())) {
    throw ValidationError.field(field, 'USERNAME_INVALID_CONTAINS', 'Username cannot contain "@", "#", ":" or "```".');
  }
  return name;
}

/** A bot username derived from an application name (forced into the rules checkUsername enforces). */
export function botUsername(applicationName: string): string {
  let name = applicationName
    .replace(/[@#:`]/g, '')
    .trim()
    .replace(/\s+/g, ' ')
    .slice(0, 32);
  if (RESERVED.has(name.toLowerCase())) name = `${name} bot`;
  return name.length >= 2 ? name : `${name}bot`.padEnd(2, '_');
}
