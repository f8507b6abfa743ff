import { allowsDispatch } from '../../src/domain/intents.js';
import type { ActorContext } from '../runtime/ActorContext.js';
import type { SessionPort } from './clientOps.js';
import type { DurableSession } from './DurableSession.js';
import type { MemberListWatch } from './memberListWatch.js';
import type { SessionPresenceLink } from './sessionPresence.js';
import type { Identity } from './sessionRecord.js';
import type { VoiceServerOptions } from './sessionVoice.js';

/** What a Session actor lends its client-op handlers for one op. */
export interface SessionParts {
  readonly ctx: ActorContext;
  readonly identity: Identity;
  readonly session: DurableSession;
  readonly presence: SessionPresenceLink;
  readonly memberLists: MemberListWatch;
  readonly voice: VoiceServerOptions;
}

/** The port client ops see: dispatches they emit are recorded into `outbox`, delivered after the op. */
export function sessionPort(parts: SessionParts, outbox: string[]): SessionPort {
  const { ctx, identity, session } = parts;
  return {
    ctx,
    userId: identity.userId,
    intents: identity.intents,
    caller: identity.caller,
    guildIds: session.guilds,
    emit: (event, dataJson, intent) => {
      if (allowsDispatch(identity.intents, intent)) outbox.push(session.journal.record(event, dataJson));
    },
    setPresence: (body) => parts.presence.update(ctx, identity.userId, body, session),
    memberLists: parts.memberLists,
    voice: parts.voice,
  };
}
