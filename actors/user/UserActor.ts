import type { Authenticate, UserCommand, UserReply } from '../../proto/gen/chorus/v1/user.js';
import { replacedImageKeys } from '../../src/domain/blobKeys.js';
import { deleteBlobsAfterCommit, type BlobRemover } from '../../src/domain/BlobStore.js';
import { UnauthorizedError, UnknownEntityError } from '../../src/domain/errors.js';
import { verifyToken } from '../../src/domain/tokens.js';
import { Actor } from '../runtime/Actor.js';
import type { ActorContext } from '../runtime/ActorContext.js';
import { ActorKind } from '../runtime/ActorKind.js';
import { dispatch, withContext, type HandlerTable } from '../runtime/commandTable.js';
import type { UserRecord } from '../runtime/ports/records.js';
import type { Stores } from '../runtime/ports/stores.js';
import type { UserSessionStore } from '../runtime/ports/userSessionStore.js';
import { interactionEndpoint } from './applicationKeys.js';
import { DurableUserSessions } from './DurableUserSessions.js';
import { privateUser, publicFieldsChanged, publicUser } from './userJson.js';
import { ReadStates } from './ReadStates.js';
import * as reads from './readStateHandlers.js';
import { repairUserRecord } from './userRecordRepair.js';
import { PresenceKeeper } from './presenceTells.js';
import { ACCOUNT_HANDLERS, type UserCase } from './accountHandlerTable.js';
import { emptyReply, jsonReply, type UserActorOptions, type UserTurn } from './userTurn.js';

/** A record as loaded, repaired (see repairUserRecord): an account is never bricked by its own stored data. */
function repaired(user: UserRecord | undefined): UserRecord | undefined {
  return user === undefined ? undefined : repairUserRecord(user);
}

/** How long own messages and mentions may change read states in memory before they are written. */
const READ_STATE_FLUSH_MS = 1_000;

/** The revoked tokens of a user who revoked none: one empty set shared, not one per User actor. */
const NONE_REVOKED: ReadonlySet<string> = new Set();

/**
 * One account (key = user id): authenticates its tokens from memory, owns its settings,
 * relationships, notes, applications and DMs, and fans user-level events out to its sessions.
 */
export class UserActor extends Actor<UserCommand, UserReply> {
  #user: UserRecord | undefined;
  /** The private user JSON, serialized once per change (authenticate runs on every request). */
  #userJson = '';
  #revoked: ReadonlySet<string> = NONE_REVOKED;
  /** For a bot: its application's id (READY.application), looked up once. */
  #applicationId: string | undefined;
  readonly #guildIds = new Set<string>();
  /** Stored as they change: the actor passivates while its user is connected, as any other. */
  readonly #sessions: DurableUserSessions;
  /** Its sessions' presences and what a change tells (presenceTells.ts). */
  readonly #presence: PresenceKeeper;
  /** Where the user stopped reading each channel (READY read_state), loaded on first use. */
  readonly #readStates: ReadStates;

  constructor(
    private readonly ctx: ActorContext,
    private readonly stores: Stores,
    private readonly options: UserActorOptions,
    sessions: UserSessionStore,
    private readonly blobs: BlobRemover,
  ) {
    super();
    this.#sessions = new DurableUserSessions(ctx, sessions);
    this.#readStates = new ReadStates(ctx.key, stores.readStates);
    this.#presence = new PresenceKeeper({
      ctx: this.ctx,
      guildIds: this.#guildIds,
      relationships: () => this.#user?.relationships,
      isUserAccount: () => this.#user?.bot === false,
      hasSession: (sessionId) => this.#sessions.has(sessionId),
      noSessionLeft: () => this.#sessions.isEmpty(),
      dispatch: (event) => {
        this.#sessions.dispatch(event);
      },
    });
  }

  override async activate(): Promise<void> {
    const [user] = await Promise.all([this.stores.users.get(this.ctx.key), this.#sessions.load()]);
    this.#setUser(repaired(user));
    if (this.#user) for (const id of await this.stores.guilds.guildIdsOfUser(this.ctx.key)) this.#guildIds.add(id);
  }

  /**
   * Every command's handler. Session bookkeeping is written through before the reply: an
   * acknowledged attach survives this node.
   */
  static readonly #handlers: HandlerTable<UserCase, UserActor, UserReply> = {
    ...withContext(ACCOUNT_HANDLERS, (actor: UserActor) => actor.#require(false)),
    authenticate: async (actor, request) => {
      // The record alone: every HTTP request authenticates, and the turn view's closures would go unused.
      const user = await actor.#requireUser(true);
      if (user.bot && actor.#applicationId === undefined) {
        actor.#applicationId = (await actor.stores.applications.findByBotUser(user.id))?.id;
      }
      return actor.#authenticate(user, request);
    },
    attachSession: async (actor, { sessionId, shardId, intents }) => {
      await actor.#sessions.attach(sessionId, shardId, intents);
      return emptyReply();
    },
    detachSession: async (actor, { sessionId }) => {
      await actor.#sessions.detach(sessionId);
      actor.#presence.sessionEnded(sessionId);
      return emptyReply();
    },
    sessionPresence: (actor, command) => {
      actor.#presence.sessionSet(command);
      return emptyReply();
    },
    getPresence: (actor) => jsonReply(actor.#presence.current),
    dispatch: (actor, { event }) => {
      if (event) actor.#sessions.dispatch(event);
      return emptyReply();
    },
    joinedGuild: (actor, { guildId }) => {
      actor.#membership(guildId, true);
      return emptyReply();
    },
    leftGuild: (actor, { guildId }) => {
      actor.#membership(guildId, false);
      return emptyReply();
    },
    ackReadState: (actor, ack) => reads.ackReadState(actor.#reads(), ack),
    readStateMessage: (actor, message) => reads.readStateMessage(actor.#reads(), message),
    listReadStates: (actor, request) => reads.listReadStates(actor.#reads(), request),
    flushReadStates: (actor) => reads.flushReadStates(actor.#reads()),
    interactionEndpoint: (actor, request) => interactionEndpoint(actor.stores.applications, request),
  };

  /** What the read-state handlers may use: the states, the account as loaded, its guilds and sessions. */
  #reads(): reads.ReadStateTurn {
    return {
      ctx: this.ctx,
      user: this.#user,
      guildIds: this.#guildIds,
      states: this.#readStates,
      dispatch: (event) => {
        this.#sessions.dispatch(event);
      },
      scheduleFlush: () => {
        this.ctx.tellSelfAfter(READ_STATE_FLUSH_MS, { command: { $case: 'flushReadStates', flushReadStates: {} } });
      },
    };
  }

  /** Read states that own messages and mentions changed are written before the actor stops. */
  override async deactivate(): Promise<void> {
    await this.#readStates.flush();
  }

  override handle({ command }: UserCommand): Promise<UserReply> {
    return dispatch(UserActor.#handlers, this, command);
  }

  /**
   * The turn view of an existing account. A record missing at activation is looked up again (a bot
   * user is created by its owner's actor, possibly after this one activated); still missing, the
   * actor stops so a stream of bad tokens does not keep it alive.
   */
  async #require(forAuth: boolean): Promise<UserTurn> {
    const user = await this.#requireUser(forAuth);
    const deleteImages = (keys: readonly string[]) => deleteBlobsAfterCommit(this.blobs, this.ctx.log, keys);
    return {
      ctx: this.ctx,
      stores: this.stores,
      options: this.options,
      user,
      guildIds: this.#guildIds,
      commit: async (built) => {
        const previous = this.#user ?? user;
        // Whatever a handler built, what is written and kept has the bounded shape a load gives.
        const next = repairUserRecord(built);
        await this.stores.users.update(next);
        this.#setUser(next);
        if (publicFieldsChanged(user, next)) this.#tellGuilds(next);
        await deleteImages([
          ...replacedImageKeys('avatars', next.id, previous.avatar, next.avatar),
          ...replacedImageKeys('banners', next.id, previous.banner, next.banner),
        ]);
      },
      deleteImages,
      dispatch: (event, data, intent = 0) => {
        this.#sessions.dispatch({ event, dataJson: JSON.stringify(data), intent });
      },
    };
  }

  /** The account's record (see #require); 401 or 404 when there is none. */
  async #requireUser(forAuth: boolean): Promise<UserRecord> {
    if (!this.#user) this.#setUser(repaired(await this.stores.users.get(this.ctx.key)));
    const user = this.#user;
    if (!user) {
      this.ctx.stopSelf();
      throw forAuth ? new UnauthorizedError() : new UnknownEntityError('user');
    }
    return user;
  }

  /** Checks a token from memory alone (it runs for every HTTP request): signature, generation, revocation. */
  #authenticate(user: UserRecord, request: Authenticate): UserReply {
    const claims = verifyToken(this.options.tokenSecret, request.token);
    const valid =
      claims !== undefined &&
      claims.userId === user.id &&
      claims.generation === user.token_generation &&
      !user.disabled &&
      !user.deleted &&
      (this.#revoked.size === 0 || !this.#revoked.has(claims.revocationKey));
    if (!valid) throw new UnauthorizedError();
    return {
      reply: {
        $case: 'authenticated',
        authenticated: {
          caller: { userId: user.id, bot: user.bot, rights: user.rights },
          userJson: this.#userJson,
          guildIds: [...this.#guildIds],
          applicationId: this.#applicationId ?? '',
        },
      },
    };
  }

  /** A Guild told us the user joined or left: keep the cached ids current and tell every session. */
  #membership(guildId: string, joined: boolean): void {
    if (joined) this.#guildIds.add(guildId);
    else this.#guildIds.delete(guildId);
    this.#sessions.membership(guildId, joined);
    if (joined) this.#presence.joinedGuild(guildId);
  }

  /** Members keep a snapshot of their user: each guild is told (never awaited: a Guild only tells back). */
  #tellGuilds(user: UserRecord): void {
    const userJson = JSON.stringify(publicUser(user));
    for (const guildId of this.#guildIds) {
      this.ctx.tell(ActorKind.Guild, guildId, {
        command: { $case: 'userChanged', userChanged: { userId: user.id, userJson } },
      });
    }
  }

  #setUser(user: UserRecord | undefined): void {
    this.#user = user;
    this.#userJson = user ? JSON.stringify(privateUser(user)) : '';
    const revoked = user?.revoked_tokens ?? [];
    this.#revoked = revoked.length === 0 ? NONE_REVOKED : new Set(revoked);
  }
}
