import type { Router } from '@koa/router';
import type { EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { adminRoutes } from './adminRoutes.js';
import { instanceRoutes } from './instanceRoutes.js';
import { instanceCompatRoutes } from './instanceCompatRoutes.js';
import { instancePolicyRoutes } from './instancePolicyRoutes.js';
import { expressionRoutes } from './expressionRoutes.js';
import { guildExtrasRoutes } from './guildExtrasRoutes.js';
import { templateRoutes } from './templateRoutes.js';
import { channelRoutes } from './channelRoutes.js';
import { guildRoutes } from './guildRoutes.js';
import { guildSettingsRoutes } from './guildSettingsRoutes.js';
import { inviteRoutes } from './inviteRoutes.js';
import { memberRoutes } from './memberRoutes.js';
import { moderationRoutes } from './moderationRoutes.js';
import { roleRoutes } from './roleRoutes.js';
import { messageRoutes } from './messageRoutes.js';
import { pinRoutes } from './pinRoutes.js';
import { reactionRoutes } from './reactionRoutes.js';
import { applicationCommandRoutes } from './applicationCommandRoutes.js';
import { applicationRoutes } from './applicationRoutes.js';
import { authRoutes } from './authRoutes.js';
import { userCompatRoutes } from './userCompatRoutes.js';
import { userRoutes } from './userRoutes.js';
import { userSocialRoutes } from './userSocialRoutes.js';
import { webhookRoutes } from './webhookRoutes.js';
import { interactionRoutes } from './interactionRoutes.js';

/** Adds one resource's routes to the API router. */
export type RouteModule = (router: Router<EdgeState>, deps: EdgeDeps) => void;

/** Every resource's routes, in mount order. */
export const ROUTE_MODULES: readonly RouteModule[] = [
  instanceRoutes,
  adminRoutes,
  instanceCompatRoutes,
  instancePolicyRoutes,
  authRoutes,
  // Before userRoutes: its "/users/{id}/..." routes would otherwise take "/users/@me/...".
  userSocialRoutes,
  userCompatRoutes,
  userRoutes,
  applicationRoutes,
  applicationCommandRoutes,
  // Before messageRoutes: its "/channels/{id}/messages/{message_id}" would otherwise take "messages/pins".
  pinRoutes,
  reactionRoutes,
  messageRoutes,
  // Before webhookRoutes: an interaction token's "/webhooks/{application_id}/{token}/..." is served here.
  interactionRoutes,
  webhookRoutes,
  // Before guildRoutes and roleRoutes: "/guilds/templates/{code}" and "/roles/member-counts" are literal paths.
  templateRoutes,
  guildExtrasRoutes,
  expressionRoutes,
  guildRoutes,
  guildSettingsRoutes,
  roleRoutes,
  memberRoutes,
  moderationRoutes,
  channelRoutes,
  inviteRoutes,
];
