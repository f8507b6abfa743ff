import type { GuildBodyRequest, GuildReply, GuildRequest } from '../../proto/gen/chorus/v1/guild.js';
import { BadRequestError, ConflictError, ForbiddenError, ValidationError } from '../../src/domain/errors.js';
import { Permission } from '../../src/domain/permissions.js';
import type { GuildRecord, InviteRecord } from '../runtime/ports/records.js';
import type { GuildRuntime } from './GuildRuntime.js';
import { callerId, jsonReply } from './GuildRuntime.js';
import type { GuildState } from './GuildState.js';
import { ChannelType } from './guildChannelModel.js';
import { guildJson, type JsonObject } from './guildJson.js';
import { widgetPresences } from './guildPresences.js';
import { canView, requireGuildPermission, requireMember } from './guildPermissions.js';
import { bodyOf } from '../../src/contract/bodyOf.js';
import { GuildUpdateWelcomeScreenSchema, VanityUrlSchema, WidgetModifySchema } from '../../src/contract/index.js';

/** Vanity codes: lower-case letters, digits and dashes, 2..20 long once trimmed (Discord's rule). */
const VANITY_PATTERN = /^[a-z0-9-]{2,20}$/;

/** Stores changed guild fields and tells GUILD_UPDATE. */
async function saveFields(rt: GuildRuntime, fields: JsonObject): Promise<void> {
  const state = rt.state;
  const guild: GuildRecord = { ...state.guild, fields: { ...state.guild.fields, ...fields } };
  await rt.stores.guilds.saveGuild(guild);
  state.guild = guild;
  rt.emit('GUILD_UPDATE', guildJson(state));
}

function requireGuildChannel(state: GuildState, channelId: string | null, path: string): void {
  const channel = channelId === null ? undefined : state.channels.get(channelId);
  if (channelId !== null && (!channel || channel.type === ChannelType.category)) {
    throw ValidationError.field(path, 'CHANNEL_INVALID', 'Not a channel of this guild.');
  }
}

function widgetSettings(state: GuildState): JsonObject {
  return {
    enabled: state.guild.fields['widget_enabled'] === true,
    channel_id: state.guild.fields['widget_channel_id'] ?? null,
  };
}

/** get_widget (MANAGE_GUILD, as on Discord): the widget settings. */
export function getWidget(rt: GuildRuntime, request: GuildRequest): GuildReply {
  requireGuildPermission(rt.state, callerId(request.caller), Permission.MANAGE_GUILD);
  return jsonReply(widgetSettings(rt.state));
}

/** update_widget (MANAGE_GUILD): WidgetModifySchema; the channel must belong to the guild. */
export async function updateWidget(rt: GuildRuntime, request: GuildBodyRequest): Promise<GuildReply> {
  const state = rt.state;
  requireGuildPermission(state, callerId(request.caller), Permission.MANAGE_GUILD);
  const body = bodyOf(WidgetModifySchema, request.body);
  const channelId = body.channel_id || null;
  requireGuildChannel(state, channelId, 'channel_id');
  await saveFields(rt, { widget_enabled: body.enabled, widget_channel_id: channelId });
  return jsonReply(widgetSettings(state));
}

/** get_widget_json (public): 403 50004 while the widget is disabled; lists voice channels anyone may see. */
export function getWidgetJson(rt: GuildRuntime): GuildReply {
  const state = rt.state;
  if (state.guild.fields['widget_enabled'] !== true) throw new ForbiddenError('Widget Disabled', 50_004);
  const everyoneCanSee = (channelId: string): boolean => {
    const everyone = state.overwritesOf(channelId).find((o) => o.id === state.id);
    return !everyone || (everyone.deny & Permission.VIEW_CHANNEL) === 0n;
  };
  const channels = state
    .sortedChannels()
    .filter((c) => c.type === ChannelType.voice && everyoneCanSee(c.id))
    .map((c) => ({ id: c.id, name: c.name, position: c.position }));
  return jsonReply({
    id: state.id,
    name: state.guild.name,
    instant_invite: state.guild.fields['vanity_url_code'] ?? null,
    channels,
    ...widgetPresences(state),
  });
}

function welcomeScreen(state: GuildState): JsonObject {
  const stored = state.guild.fields['welcome_screen'] as JsonObject | undefined;
  return { description: stored?.['description'] ?? null, welcome_channels: stored?.['welcome_channels'] ?? [] };
}

/** get_welcome_screen (members). */
export function getWelcomeScreen(rt: GuildRuntime, request: GuildRequest): GuildReply {
  requireMember(rt.state, callerId(request.caller));
  return jsonReply(welcomeScreen(rt.state));
}

/** update_welcome_screen (MANAGE_GUILD): each welcome channel must belong to the guild. */
export async function updateWelcomeScreen(rt: GuildRuntime, request: GuildBodyRequest): Promise<GuildReply> {
  const state = rt.state;
  requireGuildPermission(state, callerId(request.caller), Permission.MANAGE_GUILD);
  const body = bodyOf(GuildUpdateWelcomeScreenSchema, request.body);
  const current = (state.guild.fields['welcome_screen'] as JsonObject | undefined) ?? {};
  body.welcome_channels?.forEach((item, index) => {
    requireGuildChannel(state, item.channel_id, `welcome_channels.${index}.channel_id`);
  });
  const next: JsonObject = {
    enabled: body.enabled ?? current['enabled'] ?? false,
    description: body.description ?? current['description'] ?? null,
    welcome_channels: (body.welcome_channels ?? (current['welcome_channels'] as unknown[] | undefined) ?? []).map(
      (item) => {
        const entry = item as { channel_id: string; description: string; emoji_id?: string; emoji_name?: string };
        return {
          channel_id: entry.channel_id,
          description: entry.description,
          emoji_id: entry.emoji_id ?? null,
          emoji_name: entry.emoji_name ?? null,
        };
      },
    ),
  };
  await saveFields(rt, { welcome_screen: next });
  return jsonReply(welcomeScreen(state));
}

/** get_vanity_url (MANAGE_GUILD): `{code, uses}`. */
export async function getVanityUrl(rt: GuildRuntime, request: GuildRequest): Promise<GuildReply> {
  const state = rt.state;
  requireGuildPermission(state, callerId(request.caller), Permission.MANAGE_GUILD);
  const code = (state.guild.fields['vanity_url_code'] as string | null | undefined) ?? null;
  const invite = code === null ? undefined : await rt.stores.guilds.getInvite(code);
  return jsonReply({ code, uses: invite?.uses ?? 0 });
}

/**
 * update_vanity_url (MANAGE_GUILD): the code is kept as a permanent invite, so it is unique across
 * guilds and GET/POST /invites/{code} work with it; a taken or malformed code is 400 50020.
 */
export async function updateVanityUrl(rt: GuildRuntime, request: GuildBodyRequest): Promise<GuildReply> {
  const state = rt.state;
  requireGuildPermission(state, callerId(request.caller), Permission.MANAGE_GUILD);
  const body = bodyOf(VanityUrlSchema, request.body);
  const code = (body.code ?? '').trim().toLowerCase();
  const previous = (state.guild.fields['vanity_url_code'] as string | null | undefined) ?? null;
  if (code === previous) return jsonReply({ code });
  const invalid = new BadRequestError('Invite code is either invalid or taken.', 50_020);
  if (code !== '') {
    if (!VANITY_PATTERN.test(code)) throw invalid;
    const channel = state
      .sortedChannels()
      .find((c) => c.type !== ChannelType.category && canView(state, state.ownerId, c.id));
    if (!channel) throw invalid;
    if (await rt.stores.guilds.getInvite(code)) throw invalid;
    const invite: InviteRecord = {
      code,
      guild_id: state.id,
      channel_id: channel.id,
      inviter_id: null,
      max_age: 0,
      max_uses: 0,
      uses: 0,
      temporary: false,
      created_at: rt.nowIso(),
    };
    try {
      await rt.stores.guilds.saveInvite(invite);
    } catch (error) {
      if (error instanceof ConflictError) throw invalid;
      throw error;
    }
  }
  if (previous !== null) await rt.stores.guilds.deleteInvite(previous);
  await saveFields(rt, { vanity_url_code: code === '' ? null : code });
  return jsonReply({ code: code === '' ? null : code });
}
