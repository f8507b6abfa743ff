import type { Static } from '@sinclair/typebox';
import * as account from './account.js';
import * as application from './application.js';
import * as applicationCommand from './applicationCommand.js';
import * as channel from './channel.js';
import * as guild from './guild.js';
import * as interaction from './interaction.js';
import * as message from './message.js';
import * as realtime from './realtime.js';
import * as user from './user.js';

/** Every request, gateway and voice schema, by its spec name; `validate(name, body)` compiles them on first use. */
export const schemas = {
  // Account and authentication
  LoginSchema: account.LoginSchema,
  RegisterSchema: account.RegisterSchema,
  TotpSchema: account.TotpSchema,
  BackupCodesChallengeSchema: account.BackupCodesChallengeSchema,
  ForgotPasswordSchema: account.ForgotPasswordSchema,
  PasswordResetSchema: account.PasswordResetSchema,
  VerifyEmailSchema: account.VerifyEmailSchema,
  TotpEnableSchema: account.TotpEnableSchema,
  TotpDisableSchema: account.TotpDisableSchema,
  MfaCodesSchema: account.MfaCodesSchema,
  CodesVerificationSchema: account.CodesVerificationSchema,
  GenerateWebAuthnCredentialsSchema: account.GenerateWebAuthnCredentialsSchema,
  CreateWebAuthnCredentialSchema: account.CreateWebAuthnCredentialSchema,
  WebAuthnPostSchema: account.WebAuthnPostSchema,
  WebAuthnTotpSchema: account.WebAuthnTotpSchema,
  UserDeleteSchema: account.UserDeleteSchema,
  // User
  UserModifySchema: user.UserModifySchema,
  UserProfileModifySchema: user.UserProfileModifySchema,
  RelationshipPostSchema: user.RelationshipPostSchema,
  RelationshipPutSchema: user.RelationshipPutSchema,
  DmChannelCreateSchema: user.DmChannelCreateSchema,
  UserSettingsSchema: user.UserSettingsSchema,
  CustomStatus: user.CustomStatus,
  FriendSourceFlags: user.FriendSourceFlags,
  GuildFolder: user.GuildFolder,
  UserGuildSettingsSchema: user.UserGuildSettingsSchema,
  ChannelOverride: user.ChannelOverride,
  MuteConfig: user.MuteConfig,
  // Guild
  GuildCreateSchema: guild.GuildCreateSchema,
  GuildUpdateSchema: guild.GuildUpdateSchema,
  GuildTemplateCreateSchema: guild.GuildTemplateCreateSchema,
  TemplateCreateSchema: guild.TemplateCreateSchema,
  TemplateModifySchema: guild.TemplateModifySchema,
  VanityUrlSchema: guild.VanityUrlSchema,
  GuildUpdateWelcomeScreenSchema: guild.GuildUpdateWelcomeScreenSchema,
  WidgetModifySchema: guild.WidgetModifySchema,
  BanCreateSchema: guild.BanCreateSchema,
  BulkBanSchema: guild.BulkBanSchema,
  BanModeratorSchema: guild.BanModeratorSchema,
  BanRegistrySchema: guild.BanRegistrySchema,
  EmojiCreateSchema: guild.EmojiCreateSchema,
  EmojiModifySchema: guild.EmojiModifySchema,
  ModifyGuildStickerSchema: guild.ModifyGuildStickerSchema,
  RoleModifySchema: guild.RoleModifySchema,
  RoleCreateSchema: guild.RoleCreateSchema,
  RolePositionUpdateSchema: guild.RolePositionUpdateSchema,
  RoleMembersSchema: guild.RoleMembersSchema,
  MemberChangeSchema: guild.MemberChangeSchema,
  MemberChangeProfileSchema: guild.MemberChangeProfileSchema,
  MemberNickChangeSchema: guild.MemberNickChangeSchema,
  PruneSchema: guild.PruneSchema,
  InviteCreateSchema: guild.InviteCreateSchema,
  PurgeSchema: guild.PurgeSchema,
  WebhookCreateSchema: guild.WebhookCreateSchema,
  WebhookModifySchema: guild.WebhookModifySchema,
  // Channel
  ChannelModifySchema: channel.ChannelModifySchema,
  ChannelCreateSchema: channel.ChannelCreateSchema,
  ChannelPermissionOverwriteType: channel.ChannelPermissionOverwriteType,
  ChannelPermissionOverwriteSchema: channel.ChannelPermissionOverwriteSchema,
  ChannelReorderSchema: channel.ChannelReorderSchema,
  GuildChannelPositionSchema: channel.GuildChannelPositionSchema,
  // Message
  MessageCreateSchema: message.MessageCreateSchema,
  MessageEditSchema: message.MessageEditSchema,
  WebhookExecuteSchema: message.WebhookExecuteSchema,
  Embed: message.Embed,
  EmbedImage: message.EmbedImage,
  BulkDeleteSchema: message.BulkDeleteSchema,
  MessageAcknowledgeSchema: message.MessageAcknowledgeSchema,
  AckBulkSchema: message.AckBulkSchema,
  // Application
  ApplicationCreateSchema: application.ApplicationCreateSchema,
  ApplicationModifySchema: application.ApplicationModifySchema,
  ApplicationAuthorizeSchema: application.ApplicationAuthorizeSchema,
  BotModifySchema: application.BotModifySchema,
  ApplicationCommandCreateSchema: applicationCommand.ApplicationCommandCreateSchema,
  ApplicationCommandEditSchema: applicationCommand.ApplicationCommandEditSchema,
  ApplicationCommandBulkSchema: applicationCommand.ApplicationCommandBulkSchema,
  ApplicationCommandPermissionsSchema: applicationCommand.ApplicationCommandPermissionsSchema,
  InteractionCreateSchema: interaction.InteractionCreateSchema,
  InteractionCallbackSchema: interaction.InteractionCallbackSchema,
  // Real-time (gateway and voice)
  IdentifySchema: realtime.IdentifySchema,
  ActivitySchema: realtime.ActivitySchema,
  Status: realtime.Status,
  Activity: realtime.Activity,
  ActivityType: realtime.ActivityType,
  LazyRequestSchema: realtime.LazyRequestSchema,
  VoiceStateUpdateSchema: realtime.VoiceStateUpdateSchema,
  VoiceIdentifySchema: realtime.VoiceIdentifySchema,
  VoiceVideoSchema: realtime.VoiceVideoSchema,
  SelectProtocolSchema: realtime.SelectProtocolSchema,
  TransportMakeRequestResponse: realtime.TransportMakeRequestResponse,
} as const;

/** Name of a schema in `schemas`, as passed to `validate`. */
export type SchemaName = keyof typeof schemas;

/** The validated body type of schema N, derived from the schema itself (TypeBox's Static). */
export type SchemaBody<N extends SchemaName> = Static<(typeof schemas)[N]>;

export * from './account.js';
export * from './application.js';
export * from './applicationCommand.js';
export * from './channel.js';
export * from './guild.js';
export * from './interaction.js';
export * from './message.js';
export * from './realtime.js';
export * from './user.js';
