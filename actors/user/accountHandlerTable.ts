import type { UserCommand, UserReply } from '../../proto/gen/chorus/v1/user.js';
import type { HandlerTable } from '../runtime/commandTable.js';
import * as account from './accountHandlers.js';
import { applicationCommands } from './applicationCommandHandlers.js';
import * as apps from './applicationHandlers.js';
import * as dms from './dmHandlers.js';
import { listGuilds } from './guildListing.js';
import * as mfa from './mfaHandlers.js';
import * as oauth from './oauthHandlers.js';
import * as prefs from './preferenceHandlers.js';
import * as relations from './relationshipHandlers.js';
import { setRights } from './rightsHandlers.js';
import type { UserTurn } from './userTurn.js';

/** Every User actor command case. */
export type UserCase = NonNullable<UserCommand['command']>;
/** Session bookkeeping and guild membership: served without the account record. */
type RuntimeCase =
  | 'attachSession'
  | 'detachSession'
  | 'sessionPresence'
  | 'getPresence'
  | 'dispatch'
  | 'joinedGuild'
  | 'leftGuild'
  | 'ackReadState'
  | 'readStateMessage'
  | 'listReadStates'
  | 'flushReadStates'
  | 'interactionEndpoint';
/** Commands about the account itself, each in its helper module: served with the record loaded. */
type AccountCase = Exclude<UserCase, { $case: RuntimeCase | 'authenticate' }>;

/** Handlers of the commands about the account, each taking the turn view of the loaded record. */
export const ACCOUNT_HANDLERS: HandlerTable<AccountCase, UserTurn, UserReply> = {
  getMe: account.getMe,
  updateMe: account.updateMe,
  getPublic: account.getPublic,
  getProfile: account.getProfile,
  updateProfile: account.updateProfile,
  logout: account.logout,
  disableAccount: account.disableAccount,
  deleteAccount: account.deleteAccount,
  enableTotp: mfa.enableTotp,
  disableTotp: mfa.disableTotp,
  getBackupCodes: mfa.getBackupCodes,
  getSettings: prefs.getSettings,
  updateSettings: prefs.updateSettings,
  getGuildSettings: prefs.getGuildSettings,
  updateGuildSettings: prefs.updateGuildSettings,
  listGuildSettings: prefs.listGuildSettings,
  getNote: prefs.getNote,
  putNote: prefs.putNote,
  getRelationships: relations.listRelationships,
  putRelationship: relations.putRelationship,
  addRelationship: relations.addRelationshipByTag,
  deleteRelationship: relations.deleteRelationship,
  relationshipChanged: relations.relationshipChanged,
  mutualRelationships: relations.mutualRelationships,
  listDms: dms.listDms,
  openDm: dms.openDm,
  listGuilds,
  createApplication: apps.createApplication,
  listApplications: apps.listApplications,
  getApplication: apps.getApplication,
  updateApplication: apps.updateApplication,
  createBot: apps.createBot,
  resetBotToken: apps.resetBotToken,
  updateBot: apps.updateBot,
  getAuthorize: oauth.getAuthorize,
  authorizeApplication: oauth.authorizeApplication,
  applicationCommands,
  setRights,
};
