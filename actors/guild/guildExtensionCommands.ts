import type { GuildCommand, GuildReply } from '../../proto/gen/chorus/v1/guild.js';
import { InternalError } from '../../src/domain/errors.js';
import type { GuildRuntime } from './GuildRuntime.js';
import * as emojis from './guildEmojis.js';
import * as extras from './guildExtras.js';
import { createFromTemplate } from './guildFromTemplate.js';
import * as stickers from './guildStickers.js';
import * as templates from './guildTemplates.js';

type AnyCommand = NonNullable<GuildCommand['command']>;

/** Cases served here: expressions, templates, preview, role counts, member profile and voice state, direct adds. */
const EXTENSION_CASES = [
  'listEmojis',
  'getEmoji',
  'createEmoji',
  'updateEmoji',
  'deleteEmoji',
  'listStickers',
  'getSticker',
  'createSticker',
  'updateSticker',
  'deleteSticker',
  'listTemplates',
  'createTemplate',
  'syncTemplate',
  'updateTemplate',
  'deleteTemplate',
  'getTemplate',
  'createFromTemplate',
  'templateUsed',
  'getPreview',
  'roleMemberCounts',
  'updateMemberProfile',
  'putMember',
  'updateVoiceState',
] as const satisfies readonly AnyCommand['$case'][];
const EXTENSION_SET: ReadonlySet<string> = new Set(EXTENSION_CASES);

/** A Guild command served by {@link handleExtension}. */
export type ExtensionCommand = Extract<AnyCommand, { $case: (typeof EXTENSION_CASES)[number] }>;

/** True for the commands this module serves (GuildActor's switch handles the rest). */
export function isExtensionCommand(command: AnyCommand): command is ExtensionCommand {
  return EXTENSION_SET.has(command.$case);
}

function assertNever(value: never): never {
  throw new InternalError({ cause: new Error(`Unhandled guild command ${JSON.stringify(value)}`) });
}

/** Dispatches one extension command; `guildId` is the actor's key (a guild being created has no state yet). */
export function handleExtension(
  rt: GuildRuntime,
  guildId: string,
  command: ExtensionCommand,
): Promise<GuildReply> | GuildReply {
  switch (command.$case) {
    case 'listEmojis':
      return emojis.listEmojis(rt, command.listEmojis);
    case 'getEmoji':
      return emojis.getEmoji(rt, command.getEmoji);
    case 'createEmoji':
      return emojis.createEmoji(rt, command.createEmoji);
    case 'updateEmoji':
      return emojis.updateEmoji(rt, command.updateEmoji);
    case 'deleteEmoji':
      return emojis.deleteEmoji(rt, command.deleteEmoji);
    case 'listStickers':
      return stickers.listStickers(rt, command.listStickers);
    case 'getSticker':
      return stickers.getSticker(rt, command.getSticker);
    case 'createSticker':
      return stickers.createSticker(rt, command.createSticker);
    case 'updateSticker':
      return stickers.updateSticker(rt, command.updateSticker);
    case 'deleteSticker':
      return stickers.deleteSticker(rt, command.deleteSticker);
    case 'listTemplates':
      return templates.listTemplates(rt, command.listTemplates);
    case 'createTemplate':
      return templates.createTemplate(rt, command.createTemplate);
    case 'syncTemplate':
      return templates.syncTemplate(rt, command.syncTemplate);
    case 'updateTemplate':
      return templates.updateTemplate(rt, command.updateTemplate);
    case 'deleteTemplate':
      return templates.deleteTemplate(rt, command.deleteTemplate);
    case 'getTemplate':
      return templates.getTemplate(rt, command.getTemplate);
    case 'createFromTemplate':
      return createFromTemplate(rt, guildId, command.createFromTemplate);
    case 'templateUsed':
      return templates.templateUsed(rt, command.templateUsed);
    case 'getPreview':
      return extras.getPreview(rt, command.getPreview);
    case 'roleMemberCounts':
      return extras.roleMemberCounts(rt, command.roleMemberCounts);
    case 'updateMemberProfile':
      return extras.updateMemberProfile(rt, command.updateMemberProfile);
    case 'putMember':
      return extras.putMember(rt, command.putMember);
    case 'updateVoiceState':
      return extras.updateVoiceState(rt, command.updateVoiceState);
    default:
      return assertNever(command);
  }
}
