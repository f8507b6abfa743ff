import type { ApplicationModifyBody } from '../../src/contract/application.js';
import { ValidationError } from '../../src/domain/errors.js';
import type { ApplicationRecord, UserRecord } from '../runtime/ports/records.js';
import { imageHash } from '../../src/domain/imageHash.js';
import { newInteractionKeyPair } from '../../src/domain/interactionSigning.js';
import { publicUser } from './userJson.js';

/** Fields of ApplicationModifySchema kept in `extra` (they have no column of their own). */
const EXTRA_FIELDS = [
  'interactions_endpoint_url',
  'privacy_policy_url',
  'role_connections_verification_url',
  'terms_of_service_url',
  'max_participants',
  'tags',
] as const;

/** A new application owned by `ownerId`, without a bot yet. */
export function newApplication(id: string, ownerId: string, name: string): ApplicationRecord {
  const keys = newInteractionKeyPair();
  return {
    id,
    owner_id: ownerId,
    name,
    description: '',
    icon: null,
    bot_user_id: null,
    bot_public: true,
    bot_require_code_grant: false,
    flags: 0,
    verify_key: keys.verifyKey,
    signing_key: keys.signingKeyPem,
    extra: {},
  };
}

/** An application name as stored: trimmed, 1..100 characters; 50035 on `name` otherwise. */
export function checkApplicationName(raw: string): string {
  const name = raw.trim();
  if (name.length < 1 || name.length > 100) {
    throw ValidationError.field('name', 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
  }
  return name;
}

/** The record after PATCH /applications/{id}. */
export function modifiedApplication(app: ApplicationRecord, form: ApplicationModifyBody): ApplicationRecord {
  const next: ApplicationRecord = { ...app, extra: { ...app.extra } };
  if (form.name !== undefined) next.name = checkApplicationName(form.name);
  if (form.description !== undefined) next.description = form.description;
  if (form.icon !== undefined) next.icon = imageHash('icon', form.icon);
  if (form.bot_public !== undefined) next.bot_public = form.bot_public;
  if (form.bot_require_code_grant !== undefined) next.bot_require_code_grant = form.bot_require_code_grant;
  if (form.flags !== undefined) next.flags = form.flags;
  for (const field of EXTRA_FIELDS) if (form[field] !== undefined) next.extra[field] = form[field];
  return next;
}

/**
 * Optional keys of Discord's application object (`key?` in its docs, not nullable): sent only when set, as
 * Discord does. Typed clients read them as "absent or a value" (Discord4J's `Possible<String>` fails on null).
 */
const OMITTED_WHEN_UNSET = ['terms_of_service_url', 'privacy_policy_url', 'tags', 'max_participants'] as const;

/** Discord's application object; `owner` and `bot` as public users when known. */
export function applicationJson(
  app: ApplicationRecord,
  owner: UserRecord | undefined,
  bot: UserRecord | undefined,
): Record<string, unknown> {
  const json: Record<string, unknown> = {
    id: app.id,
    name: app.name,
    icon: app.icon,
    description: app.description,
    // Deprecated, always "" until v11; Discord4J requires it.
    summary: '',
    type: null,
    hook: true,
    bot_public: app.bot_public,
    bot_require_code_grant: app.bot_require_code_grant,
    verify_key: app.verify_key,
    flags: app.flags,
    team: null,
    redirect_uris: [],
    // `?string` in Discord's docs: sent, null when unset.
    // An empty string (how PATCH clears it) reads as unset.
    interactions_endpoint_url: app.extra['interactions_endpoint_url'] || null,
    role_connections_verification_url: app.extra['role_connections_verification_url'] ?? null,
    integration_types_config: {},
  };
  if (owner) json['owner'] = publicUser(owner);
  for (const key of OMITTED_WHEN_UNSET) {
    const value = app.extra[key];
    if (value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0)) {
      json[key] = value;
    }
  }
  if (bot) json['bot'] = publicUser(bot);
  return json;
}
