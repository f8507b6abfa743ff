import { randomInt } from 'node:crypto';
import type { GuildBodyRequest, GuildReply, GuildRequest, TemplateTarget } from '../../proto/gen/chorus/v1/guild.js';
import { BadRequestError, ConflictError, UnknownEntityError, ValidationError } from '../../src/domain/errors.js';
import { templateIndexKey } from '../../src/domain/codeIndex.js';
import { Permission } from '../../src/domain/permissions.js';
import type { TemplateCreateBody } from '../../src/contract/guild.js';
import type { GuildRuntime } from './GuildRuntime.js';
import { callerId, jsonReply } from './GuildRuntime.js';
import type { GuildState } from './GuildState.js';
import { saveGuildField } from './expressionAccess.js';
import { requireGuildPermission } from './guildPermissions.js';
import { serializeGuild, type SerializedGuild } from './templateSnapshot.js';
import { bodyOf } from '../../src/contract/bodyOf.js';
import { TemplateCreateSchema, TemplateModifySchema } from '../../src/contract/index.js';

/**
 * The guild's template (GuildRecord.fields.template; Discord allows one per guild). Its code is
 * found from any guild through the invite code index under `template:CODE` (src/domain/codeIndex.ts),
 * so no storage port was added for templates.
 */
export interface TemplateRecord {
  readonly code: string;
  name: string;
  description: string | null;
  usage_count: number;
  readonly creator_id: string;
  /** The creator's public record when the template was made (they may leave the guild later). */
  readonly creator: Record<string, unknown>;
  readonly created_at: string;
  updated_at: string;
  serialized: SerializedGuild;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Template codes are 12 random base62 characters, as Discord's; a taken code is retried. */
const CODE_LENGTH = 12;
const CODE_ATTEMPTS = 5;

function newCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i += 1) code += BASE62.charAt(randomInt(BASE62.length));
  return code;
}

function templateOf(state: GuildState): TemplateRecord | undefined {
  return (state.guild.fields['template'] as TemplateRecord | null | undefined) ?? undefined;
}

/** The template with this code (404 10057). */
function requireTemplate(state: GuildState, code: string): TemplateRecord {
  const template = templateOf(state);
  if (!template || template.code !== code) throw new UnknownEntityError('template');
  return template;
}

/** Discord's limits: name 1..100, description at most 120 (50035 naming the field). */
function checkedText(body: TemplateCreateBody): { name: string; description: string | null } {
  const name = body.name.trim();
  if (name.length < 1 || name.length > 100) {
    throw ValidationError.field('name', 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
  }
  const description = body.description ?? null;
  if (description !== null && description.length > 120) {
    throw ValidationError.field('description', 'BASE_TYPE_MAX_LENGTH', 'Must be 120 or fewer in length.');
  }
  return { name, description };
}

/** The template object; is_dirty when the guild changed since the snapshot was taken. */
export function templateJson(state: GuildState, template: TemplateRecord): Record<string, unknown> {
  return {
    code: template.code,
    name: template.name,
    description: template.description,
    usage_count: template.usage_count,
    creator_id: template.creator_id,
    creator: template.creator,
    created_at: template.created_at,
    updated_at: template.updated_at,
    source_guild_id: state.id,
    serialized_source_guild: template.serialized,
    is_dirty: JSON.stringify(serializeGuild(state)) !== JSON.stringify(template.serialized),
  };
}

async function saveTemplate(rt: GuildRuntime, template: TemplateRecord | null): Promise<void> {
  await saveGuildField(rt, 'template', template);
}

/** list_templates (MANAGE_GUILD, as on Discord): [] or the guild's one template. */
export function listTemplates(rt: GuildRuntime, request: GuildRequest): GuildReply {
  const state = rt.state;
  requireGuildPermission(state, callerId(request.caller), Permission.MANAGE_GUILD);
  const template = templateOf(state);
  return jsonReply(template ? [templateJson(state, template)] : []);
}

/** create_template (MANAGE_GUILD): TemplateCreateSchema; a second template is 400 30031. */
export async function createTemplate(rt: GuildRuntime, request: GuildBodyRequest): Promise<GuildReply> {
  const state = rt.state;
  const actorId = callerId(request.caller);
  requireGuildPermission(state, actorId, Permission.MANAGE_GUILD);
  const { name, description } = checkedText(bodyOf(TemplateCreateSchema, request.body));
  if (templateOf(state)) throw new BadRequestError('A guild template already exists', 30_031);
  const now = rt.nowIso();
  for (let attempt = 1; ; attempt += 1) {
    const code = newCode();
    try {
      await rt.stores.guilds.saveInvite({
        code: templateIndexKey(code),
        guild_id: state.id,
        channel_id: '',
        inviter_id: actorId,
        max_age: 0,
        max_uses: 0,
        uses: 0,
        temporary: false,
        created_at: now,
      });
    } catch (error) {
      if (error instanceof ConflictError && attempt < CODE_ATTEMPTS) continue;
      throw error;
    }
    const template: TemplateRecord = {
      code,
      name,
      description,
      usage_count: 0,
      creator_id: actorId,
      creator: state.members.get(actorId)?.user ?? { id: actorId },
      created_at: now,
      updated_at: now,
      serialized: serializeGuild(state),
    };
    await saveTemplate(rt, template);
    return jsonReply(templateJson(state, template));
  }
}

/** sync_template (MANAGE_GUILD): takes a fresh snapshot of the guild. */
export async function syncTemplate(rt: GuildRuntime, target: TemplateTarget): Promise<GuildReply> {
  const state = rt.state;
  requireGuildPermission(state, callerId(target.caller), Permission.MANAGE_GUILD);
  const current = requireTemplate(state, target.code);
  const next: TemplateRecord = { ...current, serialized: serializeGuild(state), updated_at: rt.nowIso() };
  await saveTemplate(rt, next);
  return jsonReply(templateJson(state, next));
}

/** update_template (MANAGE_GUILD): TemplateModifySchema (name, description). */
export async function updateTemplate(rt: GuildRuntime, target: TemplateTarget): Promise<GuildReply> {
  const state = rt.state;
  requireGuildPermission(state, callerId(target.caller), Permission.MANAGE_GUILD);
  const current = requireTemplate(state, target.code);
  const body = bodyOf(TemplateModifySchema, target.body);
  const { name, description } = checkedText(body);
  const next: TemplateRecord = {
    ...current,
    name,
    description: body.description === undefined ? current.description : description,
    updated_at: rt.nowIso(),
  };
  await saveTemplate(rt, next);
  return jsonReply(templateJson(state, next));
}

/** delete_template (MANAGE_GUILD): replies the deleted template; its code stops resolving. */
export async function deleteTemplate(rt: GuildRuntime, target: TemplateTarget): Promise<GuildReply> {
  const state = rt.state;
  requireGuildPermission(state, callerId(target.caller), Permission.MANAGE_GUILD);
  const current = requireTemplate(state, target.code);
  const json = templateJson(state, current);
  await saveTemplate(rt, null);
  await rt.stores.guilds.deleteInvite(templateIndexKey(current.code));
  return jsonReply(json);
}

/** get_template: any signed-in user who has the code (templates are meant to be shared). */
export function getTemplate(rt: GuildRuntime, target: TemplateTarget): GuildReply {
  const state = rt.state;
  callerId(target.caller);
  return jsonReply(templateJson(state, requireTemplate(state, target.code)));
}

/** template_used (after a guild was created from it): usage_count + 1. */
export async function templateUsed(rt: GuildRuntime, target: TemplateTarget): Promise<GuildReply> {
  const state = rt.state;
  callerId(target.caller);
  const current = requireTemplate(state, target.code);
  const next: TemplateRecord = { ...current, usage_count: current.usage_count + 1 };
  await saveTemplate(rt, next);
  return jsonReply(templateJson(state, next));
}
