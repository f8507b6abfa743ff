import type { DispatchEvent } from '../../proto/gen/chorus/v1/common.js';
import type { Detach, Identify, Resume, SessionCommand, SessionReply } from '../../proto/gen/chorus/v1/session.js';
import { ConflictError, ServiceUnavailableError, toAppError, UnknownEntityError } from '../../src/domain/errors.js';
import { GatewayIntent, hasIntent } from '../../src/domain/intents.js';
import { Actor } from '../runtime/Actor.js';
import type { ActorContext } from '../runtime/ActorContext.js';
import { dispatch, withContext, type HandlerTable } from '../runtime/commandTable.js';
import type { SessionStore } from '../runtime/ports/sessionStore.js';
import { authenticate, authenticateResume, type Authenticated } from './authenticate.js';
import { refreshMemberList, serveClientOp, type SessionPort } from './clientOps.js';
import { sessionPort } from './sessionPort.js';
import { DurableSession } from './DurableSession.js';
import type { SessionOptions } from './sessionOptions.js';
import { subscribeToGuild, type SubscribedGuild } from './guildQueries.js';
import { identifyReady } from './identifyReady.js';
import { presenceStatus } from './readyPayload.js';
import { SessionPresenceLink } from './sessionPresence.js';
import { MemberListWatch } from './memberListWatch.js';
import { attachedToUser, attachToUser, leaveAll } from './sessionLinks.js';
import { identityAt, type Identity } from './sessionRecord.js';
import { isOnShard } from './sessionFilters.js';
import { dispatchFrame } from '../runtime/dispatchFrames.js';
import { dispatchInTurn, dispatchNow } from './sessionDispatch.js';
import { NO_USER_EXTRAS, userExtras } from './userExtras.js';
import { guildCreateJson } from './userGuild.js';
import { noVoiceEndpoint, voiceServerAfterMove } from './sessionVoice.js';

type SessionCase = NonNullable<SessionCommand['command']>;
/** Commands served by an identified session (every one but identify). */
type IdentifiedCase = Exclude<SessionCase, { $case: 'identify' }>;
/** What the handlers of an identified session's commands get. */
interface IdentifiedTurn {
  readonly actor: SessionActor;
  readonly identity: Identity;
}

const EMPTY: SessionReply = { reply: { $case: 'empty', empty: {} } };

/** The empty reply, once `work` is done. */
async function done(work: Promise<unknown>): Promise<SessionReply> {
  await work;
  return EMPTY;
}
const RESUMED_DATA = '{"_trace":["[\\"chorus-gateway\\",{\\"micros\\":0}]"]}';

/**
 * One gateway session (key: session id, chosen by the edge at Identify): its sequence numbers, resume
 * buffer, intents, shard and guild subscriptions. It frames each dispatch once, writes it to the
 * SessionStore, then pushes it to the edge node holding its socket; without a socket it keeps
 * buffering for `resumeWindowMs`, then ends. Because the store has everything a client was sent, the
 * actor comes back on another node after its own died (or after a hand-off): it asks the client to
 * reconnect (op 7) and serves its Resume from the stored buffer (DESIGN §8.5).
 */
export class SessionActor extends Actor<SessionCommand, SessionReply> {
  readonly #s: DurableSession;
  #ended = false;
  readonly #presence = new SessionPresenceLink();
  readonly #memberLists = new MemberListWatch();

  constructor(
    private readonly ctx: ActorContext,
    private readonly options: SessionOptions,
    private readonly store: SessionStore,
  ) {
    super();
    this.#s = new DurableSession(ctx, store, options);
  }

  /** Picks up a session the store knows (this node took it over); a new or unknown id loads nothing. */
  override async activate(): Promise<void> {
    const stored = await this.store.load(this.ctx.key);
    if (!stored) return;
    const identity = await this.#s.restore(stored);
    attachToUser(this.ctx, identity); // idempotent: restores the entry if an attach failed or was pruned
    if (!this.#s.expired) this.#presence.restored(this.ctx, identity.userId, this.#s.status);
  }

  override handle({ command }: SessionCommand): Promise<SessionReply> {
    // Dispatches are most of the traffic: served without an async frame of their own.
    const identity = this.#s.identity;
    if (command?.$case === 'dispatch' && identity && !this.#ended) {
      return this.#dispatch(identity, command.dispatch);
    }
    return dispatch(SessionActor.#handlers, this, command);
  }

  /** Handlers of the commands an identified session serves. */
  static readonly #identifiedHandlers: HandlerTable<IdentifiedCase, IdentifiedTurn, SessionReply> = {
    resume: ({ actor, identity }, command) => actor.#resume(identity, command),
    detach: ({ actor }, command) => done(actor.#detach(command)),
    dispatch: ({ actor, identity }, event) => done(actor.#dispatch(identity, event)),
    heartbeat: ({ actor }, { socket }) => done(socket ? actor.#s.reattachIfMoved(socket) : actor.#s.keepAlive()),
    clientOp: ({ actor, identity }, { op, dataJson }) => done(actor.#clientOp(identity, serveClientOp(op, dataJson))),
    expire: async ({ actor }, { detachedAt }) => {
      if (!actor.#s.socket && actor.#s.detachedAt === Number(detachedAt)) await actor.#end();
      return EMPTY;
    },
    joinedGuild: ({ actor, identity }, { guildId }) => done(actor.#join(identity, guildId)),
    leftGuild: ({ actor }, { guildId }) => done(actor.#leave(guildId)),
    invalidate: ({ actor }, { reason }) => done(actor.#invalidate(reason)),
    nodeLeft: ({ actor }, { nodeId }) => done(actor.#s.edgeLeft(nodeId)),
    voiceServer: ({ actor, identity }, { guildId, channelId }) =>
      done(actor.#clientOp(identity, voiceServerAfterMove(guildId, channelId))),
  };

  /**
   * Every command's handler. Identify starts a session; every other command needs one: an unknown
   * (never identified, expired or ended) session answers so, and never starts from nothing.
   */
  static readonly #handlers: HandlerTable<SessionCase, SessionActor, SessionReply> = {
    identify: (actor, command) => actor.#identify(command),
    ...withContext(SessionActor.#identifiedHandlers, (actor: SessionActor) => actor.#identified()),
  };

  /** This session's identity for a turn; 404 (and the activation stops) when the session is unknown. */
  #identified(): IdentifiedTurn {
    const identity = this.#s.identity;
    if (identity === undefined || this.#ended) {
      this.ctx.stopSelf();
      throw new UnknownEntityError('session');
    }
    return { actor: this, identity };
  }

  override canPassivate(): boolean {
    return this.#s.identity === undefined || this.#ended || this.#s.expired;
  }

  /** A session past its resume window ends; any other stops here and lives on in the store. */
  override async deactivate(): Promise<void> {
    this.#s.stopTimers();
    if (this.#s.identity !== undefined && !this.#ended && this.#s.expired) await this.#end();
  }

  async #identify(command: Identify): Promise<SessionReply> {
    if (this.#s.identity) throw new ConflictError('Session already identified');
    let auth: Authenticated;
    try {
      auth = await authenticate(this.ctx, this.options.tokenSecret, command.token);
    } catch (error) {
      this.ctx.stopSelf();
      throw error;
    }
    const identity = identityAt(auth.caller, command);
    this.#s.identity = identity;
    this.#s.status = presenceStatus(command.presenceJson);
    this.#s.createdAt = this.ctx.clock.now();
    this.#s.attach(command.socket);
    const onShard = auth.guildIds.filter((id) => isOnShard(id, identity.shardId, identity.shardCount));
    const [subscribed, extras] = await Promise.all([
      Promise.all(onShard.map((id) => this.#subscribe(identity, id))),
      auth.caller.bot ? undefined : userExtras(this.ctx, auth.caller),
      attachedToUser(this.ctx, identity), // READY only once DMs and user events can reach the session
    ]);
    const guildIds = onShard.filter((_, index) => subscribed[index] !== undefined);
    this.#presence.identified(this.ctx, identity.userId, auth.caller.bot, command);
    const guilds = subscribed.filter((guild): guild is SubscribedGuild => guild !== undefined);
    const { ready, supplemental } = identifyReady(command, auth, {
      sessionId: this.ctx.key,
      gatewayUrl: this.options.gatewayUrl,
      identity,
      guilds: { guildIds, subscribed: guilds },
      extras: extras ?? NO_USER_EXTRAS,
      status: this.#s.status,
    });
    // READY is not replayable: a client that missed it identifies again.
    const frames = [dispatchFrame('READY', this.#s.journal.start(), ready)];
    if (supplemental !== undefined) frames.push(this.#s.journal.record('READY_SUPPLEMENTAL', supplemental));
    if (auth.caller.bot && hasIntent(identity.intents, GatewayIntent.GUILDS)) {
      for (const { json } of guilds) frames.push(this.#s.journal.record('GUILD_CREATE', json));
    }
    try {
      await this.#s.create(identity);
    } catch (error) {
      await this.#end(); // nothing the client could resume from: it identifies again
      throw error;
    }
    this.#s.push(frames);
    return { reply: { $case: 'identified', identified: { userId: identity.userId } } };
  }

  async #resume(identity: Identity, command: Resume): Promise<SessionReply> {
    // The token must still be valid (revoked since Identify?) and this user's; unreachable is op 7, not op 9.
    const auth = await authenticateResume(this.ctx, this.options.tokenSecret, command.token);
    if (auth?.caller.userId !== identity.userId) throw new UnknownEntityError('session');
    const frames = this.#s.journal.framesAfter(Number(command.seq));
    if (!frames) {
      await this.#end(); // the client will identify again; nothing can bring this one back
      throw new UnknownEntityError('session');
    }
    const old = this.#s.socket;
    if (old && old.socketId !== command.socket?.socketId) this.ctx.pushFrames(old.nodeId, old.socketId, [], 4000);
    this.#s.attach(command.socket);
    frames.push(dispatchFrame('RESUMED', this.#s.journal.next(), RESUMED_DATA));
    try {
      await this.#s.persist();
    } catch (error) {
      // Not written: the socket must not get numbers the store lacks. The client may try again.
      this.#s.detach(this.ctx.clock.now());
      throw new ServiceUnavailableError(`Session not resumable now: ${toAppError(error).message}`);
    }
    this.#s.push(frames);
    this.#presence.restored(this.ctx, identity.userId, this.#s.status); // its User actor may have lost it
    return EMPTY;
  }

  async #detach(command: Detach): Promise<void> {
    if (this.#s.socket?.socketId !== command.socketId) return; // an old socket, already replaced by a resume
    if (command.invalidate) {
      this.#s.socket = undefined;
      await this.#end();
      return;
    }
    this.#s.detach(this.ctx.clock.now());
    await this.#s.persistOrWarn(); // a node taking the session over must know the socket is gone
  }

  #dispatch(identity: Identity, event: DispatchEvent): Promise<SessionReply> {
    const target = { session: this.#s, memberLists: this.#memberLists, identity };
    return dispatchInTurn(target, event, EMPTY, (id) => this.#clientOp(identity, refreshMemberList(id)));
  }

  /** A fan-out's dispatch to this idle session, delivered at once when nothing needs a wait (sessionDispatch). */
  override serveNow({ command }: SessionCommand): boolean {
    const identity = this.#s.identity;
    if (command?.$case !== 'dispatch' || !identity || this.#ended) return false;
    return dispatchNow({ session: this.#s, memberLists: this.#memberLists, identity }, command.dispatch);
  }

  /** Runs a client op, or work like one, with the session's port; then delivers what it emitted. */
  async #clientOp(identity: Identity, serve: (port: SessionPort) => Promise<void>): Promise<void> {
    const outbox: string[] = [];
    const status = this.#s.status;
    const parts = {
      ctx: this.ctx,
      identity,
      session: this.#s,
      presence: this.#presence,
      memberLists: this.#memberLists,
      voice: { tokenSecret: this.options.tokenSecret, endpointOf: this.options.voiceEndpointOf ?? noVoiceEndpoint },
    };
    await serve(sessionPort(parts, outbox));
    if (outbox.length > 0) await this.#s.deliver(outbox, undefined);
    if (this.#s.status !== status) await this.#s.persistOrWarn();
  }

  async #join(identity: Identity, guildId: string): Promise<void> {
    if (this.#s.guilds.has(guildId) || !isOnShard(guildId, identity.shardId, identity.shardCount)) return;
    const guild = await this.#subscribe(identity, guildId);
    if (guild === undefined) return;
    const guildCreate = hasIntent(identity.intents, GatewayIntent.GUILDS);
    const frames = guildCreate ? [this.#s.journal.record('GUILD_CREATE', guildCreateJson(identity, guild.json))] : [];
    try {
      await this.#s.persist();
    } catch (error) {
      this.#s.unwritten(error);
      return;
    }
    this.#s.push(frames);
  }

  async #leave(guildId: string): Promise<void> {
    if (!this.#s.guilds.delete(guildId)) return;
    this.ctx.tell('guild', guildId, { command: { $case: 'unsubscribe', unsubscribe: { sessionId: this.ctx.key } } });
    await this.#s.persistOrWarn();
  }

  /** An event for this session was dropped: it cannot resume without a gap, so it ends (DESIGN §8.7). */
  async #invalidate(reason: string): Promise<void> {
    this.ctx.log.warn('session_invalidated', { reason });
    const socket = this.#s.socket;
    if (socket) this.#s.closeSocket(socket);
    this.#s.socket = undefined;
    await this.#end();
  }

  /** Subscribes to one guild; its GUILD_CREATE payload, or undefined when the guild refused or failed. */
  async #subscribe(identity: Identity, guildId: string): Promise<SubscribedGuild | undefined> {
    const guild = await subscribeToGuild(this.ctx, guildId, identity.userId, identity.intentsText);
    if (guild !== undefined) this.#s.guilds.add(guildId);
    return guild;
  }

  /** Ends the session: leaves its guilds and its user, forgets it in the store, then stops. */
  async #end(): Promise<void> {
    if (this.#ended) return;
    this.#ended = true;
    this.#s.stopTimers();
    leaveAll(this.ctx, this.#s.identity, this.#s.guilds);
    this.#s.guilds.clear();
    this.ctx.stopSelf();
    await this.#s.forget();
  }
}
