import { NOTE_MAX_LENGTH } from '../../src/contract/discordLimits.js';
import type { SchemaName } from '../../src/contract/index.js';
import { validatorFor } from '../../src/contract/validate.js';
import type { UserRecord } from '../runtime/ports/records.js';
import { DEFAULT_USER_SETTINGS } from './userSettings.js';

/**
 * Bounds of a record field the repair does not know the shape of (one added after this code): kept
 * when no deeper and no larger than any body the edge accepts (see src/domain/jsonBounds.ts).
 */
const MAX_UNKNOWN_DEPTH = 32;
const MAX_UNKNOWN_NODES = 50_000;

/** Tokens a logout may revoke before the generation moves on (accountHandlers keeps it to 500). */
const MAX_REVOKED_TOKENS = 500;
/** Backup codes: 10 are generated at a time. */
const MAX_BACKUP_CODES = 20;
/** Profile strings as the schemas bound them (UserProfileModifySchema). */
const BIO_MAX_LENGTH = 1024;
const PRONOUNS_MAX_LENGTH = 40;
const LOCALE_MAX_LENGTH = 16;

const SNOWFLAKE = /^[0-9]{1,20}$/;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when `value` nests at most `maxDepth` levels and holds at most `maxNodes` values (checked iteratively). */
function isBoundedJson(value: unknown, maxDepth: number, maxNodes: number): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  let counted = 1;
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next.value !== 'object' || next.value === null) continue;
    if (next.depth > maxDepth) return false;
    const children: unknown[] = Array.isArray(next.value) ? next.value : Object.values(next.value);
    counted += children.length;
    if (counted > maxNodes) return false;
    for (const child of children) pending.push({ value: child, depth: next.depth + 1 });
  }
  return true;
}

/**
 * The fields of `stored` that the body schema `schema` accepts, each checked alone, so one bad field
 * (too deep, too large, of another shape) is dropped and the others kept. Unknown fields, and unknown
 * fields nested in known ones, are dropped as the schema's validator drops them from a body. ajv only
 * descends as deep as the schema, so a value nested thousands of levels deep costs no more than a flat one.
 */
function schemaFields(stored: unknown, schema: SchemaName): Json {
  if (!isObject(stored)) return {};
  const check = validatorFor(schema);
  // The usual case, one check: every field is valid (unknown ones are dropped from the copy).
  const whole: Json = { ...stored };
  if (check(whole)) return whole;
  const kept: Json = {};
  for (const [key, value] of Object.entries(stored)) {
    const probe: Json = { [key]: value };
    if (check(probe) && key in probe) kept[key] = probe[key];
  }
  return kept;
}

/** Per-guild notification settings: entries keyed by guild id (or "@me"), each of UserGuildSettingsSchema's fields. */
function guildSettings(stored: unknown): UserRecord['guild_settings'] {
  if (!isObject(stored)) return {};
  const kept: UserRecord['guild_settings'] = {};
  for (const [guildId, entry] of Object.entries(stored)) {
    if (guildId === '@me' || SNOWFLAKE.test(guildId)) kept[guildId] = schemaFields(entry, 'UserGuildSettingsSchema');
  }
  return kept;
}

/** Entries of a user-id-keyed map whose value passes `valid`. */
function byUserId<V>(stored: unknown, valid: (value: unknown) => value is V): Record<string, V> {
  if (!isObject(stored)) return {};
  return Object.fromEntries(
    Object.entries(stored).filter(([id, value]) => SNOWFLAKE.test(id) && valid(value)),
  ) as Record<string, V>;
}

const isNote = (value: unknown): value is string => typeof value === 'string' && value.length <= NOTE_MAX_LENGTH;
const isRelationship = (value: unknown): value is number => Number.isInteger(value);

function boundedString(value: unknown, maxLength: number, fallback: string): string {
  return typeof value === 'string' && value.length <= maxLength ? value : fallback;
}

function revokedTokens(stored: unknown): string[] {
  if (!Array.isArray(stored)) return [];
  return stored
    .filter((digest): digest is string => typeof digest === 'string' && digest.length <= 256)
    .slice(-MAX_REVOKED_TOKENS);
}

function backupCodes(stored: unknown): UserRecord['backup_codes'] {
  if (stored === undefined || !Array.isArray(stored)) return undefined;
  const valid = (entry: unknown): entry is { code: string; consumed: boolean } =>
    isObject(entry) &&
    typeof entry['code'] === 'string' &&
    entry['code'].length <= 64 &&
    typeof entry['consumed'] === 'boolean';
  return stored
    .filter(valid)
    .slice(0, MAX_BACKUP_CODES)
    .map(({ code, consumed }) => ({ code, consumed }));
}

function themeColors(stored: unknown): UserRecord['theme_colors'] {
  if (stored === undefined) return undefined;
  const valid = Array.isArray(stored) && stored.length === 2 && stored.every((color) => Number.isInteger(color));
  return valid ? (stored as number[]) : null;
}

/** Top-level fields whose shape the repair does not check: kept when their value is a bounded JSON value. */
function otherFields(user: UserRecord, known: ReadonlySet<string>): Json {
  const kept: Json = {};
  for (const [key, value] of Object.entries(user)) {
    // Known fields are repaired apart and scalars are bounded: only unknown objects and arrays are walked.
    if (known.has(key)) continue;
    if (typeof value !== 'object' || value === null || isBoundedJson(value, MAX_UNKNOWN_DEPTH, MAX_UNKNOWN_NODES)) {
      kept[key] = value;
    }
  }
  return kept;
}

const REPAIRED_FIELDS: ReadonlySet<string> = new Set([
  'settings',
  'guild_settings',
  'notes',
  'relationships',
  'revoked_tokens',
  'backup_codes',
  'theme_colors',
  'bio',
  'pronouns',
  'locale',
]);

/**
 * The record with every field a client can fill brought back to the shape and size its schema allows:
 * a bad setting (nested thousands of levels deep, too large, of another type) falls back to its default,
 * so an account is never left unusable by data stored before the schemas were bounded (every later
 * clone, serialization and write of the record would otherwise throw). Valid data comes back unchanged,
 * except for unknown fields, which are dropped as the schemas drop them from bodies.
 */
// Nested values of the given record may be changed in place (unknown keys removed) and reused.
export function repairUserRecord(user: UserRecord): UserRecord {
  // Fields are added one by one after the unknown ones (same key order as a spread): spreading the kept
  // fields into a new literal took V8's slow clone path, most of a repair's 20 µs on every User activation.
  const fields = otherFields(user, REPAIRED_FIELDS);
  fields['settings'] = schemaFields(user.settings, 'UserSettingsSchema');
  fields['guild_settings'] = guildSettings(user.guild_settings);
  fields['notes'] = byUserId(user.notes, isNote);
  fields['relationships'] = byUserId(user.relationships, isRelationship);
  fields['revoked_tokens'] = revokedTokens(user.revoked_tokens);
  fields['bio'] = boundedString(user.bio, BIO_MAX_LENGTH, '');
  fields['pronouns'] = boundedString(user.pronouns, PRONOUNS_MAX_LENGTH, '');
  fields['locale'] = boundedString(user.locale, LOCALE_MAX_LENGTH, String(DEFAULT_USER_SETTINGS['locale']));
  const repaired = fields as unknown as UserRecord;
  const codes = backupCodes(user.backup_codes);
  if (codes !== undefined) repaired.backup_codes = codes;
  const colors = themeColors(user.theme_colors);
  if (colors !== undefined) repaired.theme_colors = colors;
  return repaired;
}
