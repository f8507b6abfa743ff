import type { Authenticate, UserCommand, UserReply } from '../../proto/gen/chorus/v1/user.js';
import { replacedImageKeys } from '../../src/domain/blobKeys.js';
import { deleteBlobsAfterCommit, type BlobRemover } from '../../src/domain/BlobStore.js';
import { InternalError, UnauthorizedError, UnknownEntityError } from '../../src/domain/errors.js';
import { verifyToken } from '../../src/domain/tokens.js';
import { Actor } from '../runtime/Actor.js';
import type { ActorContext } from '../runtime/ActorContext.js';
import { ActorKind } from '../runtime/ActorKind.js';
import type { UserRecord } from '../runtime/ports/records.js';
import type { Stores } from '../runtime/ports/stores.js';
import type { UserSessionStore } from '../runtime/ports/userSessionStore.js';
import * as account from './accountHandlers.js';
import { applicationCommands } from './applicationCommandHandlers.js';
import * as apps from './applicationHandlers.js';
import * as dms from './dmHandlers.js';
import { DurableUserSessions } from './DurableUserSessions.js';
import { listGuilds } from './guildListing.js';
import * as mfa from './mfaHandlers.js';
import * as oauth from './oauthHandlers.js';
import * as prefs from './preferenceHandlers.js';
import * as relations from './relationshipHandlers.js';
import { privateUser, publicFieldsChanged, publicUser } from './userJson.js';
import { repairUserRecord } from './userRecordRepair.js';
import { emptyReply, type UserActorOptions, type UserTurn } from './userTurn.js';

type Command = NonNullable<UserCommand['command']>;
type RuntimeCase = 'attachSession' | 'detachSession' | 'dispatch' | 'joinedGuild' | 'leftGuild';
/** Session bookkeeping and guild membership: served without the account record. */
type RuntimeCommand = Extract<Command, { $case: RuntimeCase }>;
type AccountCommand = Exclude<Command, { $case: RuntimeCase | 'authenticate' }>;

const RUNTIME_CASES: ReadonlySet<string> = new Set<RuntimeCase>([
  'attachSession',
  'detachSession',
  'dispatch',
  'joinedGuild',
  'leftGuild',
]);

function isRuntimeCommand(command: Command): command is RuntimeCommand {
  return RUNTIME_CASES.has(command.$case);
}

/** A record as loaded, repaired (see repairUserRecord): an account is never bricked by its own stored data. */
function repaired(user: UserRecord | undefined): UserRecord | undefined {
  return user === undefined ? undefined : repairUserRecord(user);
}

/** Exhaustiveness guard: a command this switch does not know (a newer peer's) is an internal error. */
function assertNever(value: never): never {
  throw new InternalError({ cause: new Error(`Unhandled user command ${JSON.stringify(value)}`) });
}

/**
 * One account (key = user id): authenticates its tokens from memory, owns its settings,
 * relationships, notes, applications and DMs, and fans user-level events out to its sessions.
 */
export class UserActor extends Actor<UserCommand, UserReply> {
  #user: UserRecord | undefined;
  /** The private user JSON, serialized once per change (authenticate runs on every request). */
  #userJson = '';
  #revoked = new Set<string>();
  /** For a bot: its application's id (READY.application), looked up once. */
  #applicationId: string | undefined;
  readonly #guildIds = new Set<string>();
  /** Stored as they change: the actor passivates while its user is connected, as any other. */
  readonly #sessions: DurableUserSessions;

  constructor(
    private readonly ctx: ActorContext,
    private readonly stores: Stores,
    private readonly options: UserActorOptions,
    sessions: UserSessionStore,
    private readonly blobs: BlobRemover,
  ) {
    super();
    this.#sessions = new DurableUserSessions(ctx, sessions);
  }

  override async activate(): Promise<void> {
    const [user] = await Promise.all([this.stores.users.get(this.ctx.key), this.#sessions.load()]);
    this.#setUser(repaired(user));
    if (this.#user) for (const id of await this.stores.guilds.guildIdsOfUser(this.ctx.key)) this.#guildIds.add(id);
  }

  async handle({ command }: UserCommand): Promise<UserReply> {
    if (command === undefined) throw new UnknownEntityError('user');
    if (isRuntimeCommand(command)) return this.#runtime(command);
    if (command.$case === 'authenticate') {
      const turn = await this.#require(true);
      if (turn.user.bot && this.#applicationId === undefined) {
        this.#applicationId = (await this.stores.applications.findByBotUser(turn.user.id))?.id;
      }
      return this.#authenticate(turn, command.authenticate);
    }
    return this.#account(await this.#require(false), command);
  }

  /** Session bookkeeping is written through before the reply: an acknowledged attach survives this node. */
  async #runtime(command: RuntimeCommand): Promise<UserReply> {
    switch (command.$case) {
      case 'attachSession': {
        const { sessionId, shardId, intents } = command.attachSession;
        await this.#sessions.attach(sessionId, shardId, intents);
        break;
      }
      case 'detachSession':
        await this.#sessions.detach(command.detachSession.sessionId);
        break;
      case 'dispatch':
        if (command.dispatch.event) this.#sessions.dispatch(command.dispatch.event);
        break;
      case 'joinedGuild':
        this.#membership(command.joinedGuild.guildId, true);
        break;
      case 'leftGuild':
        this.#membership(command.leftGuild.guildId, false);
        break;
      default:
        return assertNever(command);
    }
    return emptyReply();
  }

  /** Commands about the account itself, each in its helper module. */
  #account(turn: UserTurn, command: AccountCommand): Promise<UserReply> | UserReply {
    switch (command.$case) {
      case 'getMe':
        return account.getMe(turn, command.getMe);
      case 'updateMe':
        return account.updateMe(turn, command.updateMe);
      case 'getPublic':
        return account.getPublic(turn);
      case 'getProfile':
        return account.getProfile(turn, command.getProfile);
      case 'updateProfile':
        return account.updateProfile(turn, command.updateProfile);
      case 'logout':
        return account.logout(turn, command.logout);
      case 'disableAccount':
        return account.disableAccount(turn, command.disableAccount);
      case 'deleteAccount':
        return account.deleteAccount(turn, command.deleteAccount);
      case 'enableTotp':
        return mfa.enableTotp(turn, command.enableTotp);
      case 'disableTotp':
        return mfa.disableTotp(turn, command.disableTotp);
      case 'getBackupCodes':
        return mfa.getBackupCodes(turn, command.getBackupCodes);
      case 'getSettings':
        return prefs.getSettings(turn, command.getSettings);
      case 'updateSettings':
        return prefs.updateSettings(turn, command.updateSettings);
      case 'getGuildSettings':
        return prefs.getGuildSettings(turn, command.getGuildSettings);
      case 'updateGuildSettings':
        return prefs.updateGuildSettings(turn, command.updateGuildSettings);
      case 'listGuildSettings':
        return prefs.listGuildSettings(turn, command.listGuildSettings);
      case 'getNote':
        return prefs.getNote(turn, command.getNote);
      case 'putNote':
        return prefs.putNote(turn, command.putNote);
      case 'getRelationships':
        return relations.listRelationships(turn, command.getRelationships);
      case 'putRelationship':
        return relations.putRelationship(turn, command.putRelationship);
      case 'addRelationship':
        return relations.addRelationshipByTag(turn, command.addRelationship);
      case 'deleteRelationship':
        return relations.deleteRelationship(turn, command.deleteRelationship);
      case 'relationshipChanged':
        return relations.relationshipChanged(turn, command.relationshipChanged);
      case 'mutualRelationships':
        return relations.mutualRelationships(turn, command.mutualRelationships);
      case 'listDms':
        return dms.listDms(turn, command.listDms);
      case 'openDm':
        return dms.openDm(turn, command.openDm);
      case 'listGuilds':
        return listGuilds(turn, command.listGuilds);
      case 'createApplication':
        return apps.createApplication(turn, command.createApplication);
      case 'listApplications':
        return apps.listApplications(turn, command.listApplications);
      case 'getApplication':
        return apps.getApplication(turn, command.getApplication);
      case 'updateApplication':
        return apps.updateApplication(turn, command.updateApplication);
      case 'createBot':
        return apps.createBot(turn, command.createBot);
      case 'resetBotToken':
        return apps.resetBotToken(turn, command.resetBotToken);
      case 'updateBot':
        return apps.updateBot(turn, command.updateBot);
      case 'getAuthorize':
        return oauth.getAuthorize(turn, command.getAuthorize);
      case 'authorizeApplication':
        return oauth.authorizeApplication(turn, command.authorizeApplication);
      case 'applicationCommands':
        return applicationCommands(turn, command.applicationCommands);
      default:
        return assertNever(command);
    }
  }

  /**
   * The turn view of an existing account. A record missing at activation is looked up again (a bot
   * user is created by its owner's actor, possibly after this one activated); still missing, the
   * actor stops so a stream of bad tokens does not keep it alive.
   */
  async #require(forAuth: boolean): Promise<UserTurn> {
    if (!this.#user) this.#setUser(repaired(await this.stores.users.get(this.ctx.key)));
    const user = this.#user;
    if (!user) {
      this.ctx.stopSelf();
      throw forAuth ? new UnauthorizedError() : new UnknownEntityError('user');
    }
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

  /** Checks a token from memory alone (it runs for every HTTP request): signature, generation, revocation. */
  #authenticate(turn: UserTurn, request: Authenticate): UserReply {
    const user = turn.user;
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
    this.#revoked = new Set(user?.revoked_tokens ?? []);
  }
}
