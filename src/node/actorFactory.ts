import { ChannelActor } from '../../actors/channel/ChannelActor.js';
import { GuildActor } from '../../actors/guild/GuildActor.js';
import type { Actor } from '../../actors/runtime/Actor.js';
import type { ActorFactory } from '../../actors/runtime/ActorHost.js';
import type { ActorKind } from '../../actors/runtime/ActorKind.js';
import { fenceStores } from '../../actors/runtime/fenceStores.js';
import type { SessionStore } from '../../actors/runtime/ports/sessionStore.js';
import type { Stores } from '../../actors/runtime/ports/stores.js';
import type { SubscriptionStore } from '../../actors/runtime/ports/subscriptionStore.js';
import type { UserSessionStore } from '../../actors/runtime/ports/userSessionStore.js';
import type { VoiceRoomPort } from '../../actors/runtime/ports/voiceRoomPort.js';
import type { VoiceStateStore } from '../../actors/runtime/ports/voiceStateStore.js';
import { SessionActor } from '../../actors/session/SessionActor.js';
import { UserActor } from '../../actors/user/UserActor.js';
import { VoiceRoomActor } from '../../actors/voice/VoiceRoomActor.js';
import type { Config } from '../config/Config.js';
import type { BlobRemover } from '../domain/BlobStore.js';

/**
 * Where gateway sessions, guild subscriptions, each user's session list and guilds' voice states live
 * (Redis in cluster mode, memory in embedded mode).
 */
export interface SessionPorts {
  readonly sessions: SessionStore;
  readonly subscriptions: SubscriptionStore;
  readonly userSessions: UserSessionStore;
  readonly voiceStates: VoiceStateStore;
}

/**
 * Builds each kind's actor with the ports it needs. In cluster mode the host passes a commit fence
 * and the actor gets stores whose writes are refused once its lease is gone (DESIGN §2). Blob
 * deletes are not fenced: an actor deletes only bytes its records stopped referencing (or are about
 * to, when a deposed owner's record write is then refused and retried on the new owner), so a stale
 * owner can at worst leave a link answering 404, and a check per deleted key would slow bulk deletes.
 */
export function actorFactory(
  config: Config,
  stores: Stores,
  secret: string,
  gatewayUrl: string,
  sessionPorts: SessionPorts,
  blobs: BlobRemover,
  voiceEndpointOf?: (channelId: string) => string,
  voiceRooms: VoiceRoomPort = { applyMemberState: () => undefined, knowsRoom: () => true },
): ActorFactory {
  const build = (
    kind: ActorKind,
    key: string,
    ctx: Parameters<ActorFactory>[2],
    fence?: Parameters<ActorFactory>[3],
  ) => {
    const ports = fence ? fenceStores(stores, fence) : stores;
    const live = fence ? fenceStores(sessionPorts, fence) : sessionPorts;
    let actor: Actor<never, unknown>;
    switch (kind) {
      case 'guild':
        actor = new GuildActor(
          ctx,
          ports,
          live.subscriptions,
          blobs,
          config.actors.largeGuildMembers,
          live.voiceStates,
        );
        break;
      case 'channel':
        actor = new ChannelActor(ctx, ports, blobs);
        break;
      case 'user':
        actor = new UserActor(
          ctx,
          ports,
          { tokenSecret: secret, passwordCost: config.passwordCost },
          live.userSessions,
          blobs,
        );
        break;
      case 'session':
        actor = new SessionActor(
          ctx,
          { ...config.gateway, tokenSecret: secret, gatewayUrl, ...(voiceEndpointOf ? { voiceEndpointOf } : {}) },
          live.sessions,
        );
        break;
      case 'voice':
        actor = new VoiceRoomActor(ctx, key, voiceRooms);
        break;
    }
    return actor;
  };
  return build as unknown as ActorFactory;
}
