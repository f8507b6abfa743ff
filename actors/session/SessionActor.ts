import type { Caller, DispatchEvent } from '../../proto/gen/chorus/v1/common.js';
import type {
  Detach,
  Identify,
  Resume,
  SessionCommand,
  SessionReply,
  SocketAddress,
} from '../../proto/gen/chorus/v1/session.js';
import { ConflictError, UnknownEntityError } from '../../src/domain/errors.js';
import { Actor } from '../runtime/Actor.js';
import type { ActorContext } from '../runtime/ActorContext.js';
import { authenticate, type Authenticated } from './authenticate.js';
import { handleClientOp, type SessionPort } from './clientOps.js';
import { subscribeToGuild } from './guildQueries.js';
import { presenceStatus, readyPayload } from './readyPayload.js';
import { ResumeBuffer } from './ResumeBuffer.js';
import { allowsDispatch, hasIntentBit, IntentBit, isOnShard } from './sessionFilters.js';
import { dispatchFrame, withoutMessageContent } from './sessionFrames.js';
import { userExtras } from './userExtras.js';

/** Options of a Session actor: the gateway's resume settings plus what token checks and READY need. */
export interface SessionOptions {
  /** How long a session without a socket waits for a Resume before it ends. */
  readonly resumeWindowMs: number;
  /** Dispatch frames kept for replay. */
  readonly resumeBufferSize: number;
  readonly tokenSecret: string;
  /** READY.resume_gateway_url. */
  readonly gatewayUrl: string;
}

/** Who the session belongs to and what it asked for, fixed at Identify. */
interface Identity {
  readonly userId: string;
  readonly caller: Caller;
  readonly intents: number;
  /** The intents as the decimal string the proto carries. */
  readonly intentsText: string;
  readonly shardId: number;
  readonly shardCount: number;
}

const EMPTY: SessionReply = { reply: { $case: 'empty', empty: {} } };
const RESUMED_DATA = '{"_trace":["[\\"chorus-gateway\\",{\\"micros\\":0}]"]}';

/**
 * One gateway session (key: session id, chosen by the edge at Identify): its sequence numbers, resume
 * buffer, intents, shard and guild subscriptions. It frames each dispatch once and pushes it to the
 * edge node holding its socket; without a socket it keeps buffering for `resumeWindowMs`, then ends.
 * Sessions live in memory: a Session actor never starts from nothing except by Identify.
 */
export class SessionActor extends Actor<SessionCommand, SessionReply> {
  #identity: Identity | undefined;
  #socket: SocketAddress | undefined;
  #seq = 0;
  readonly #buffer: ResumeBuffer;
  readonly #guilds = new Set<string>();
  #status = 'online';
  #detachedAt: number | undefined;
  #cancelExpiry: (() => void) | undefined;
  #ended = false;

  constructor(
    private readonly ctx: ActorContext,
    private readonly options: SessionOptions,
  ) {
    super();
    this.#buffer = new ResumeBuffer(options.resumeBufferSize);
  }

  override async handle({ command }: SessionCommand): Promise<SessionReply> {
    if (command?.$case === 'identify') return this.#identify(command.identify);
    const identity = this.#identity;
    if (command === undefined || identity === undefined || this.#ended) {
      // An unknown (never identified, expired or ended) session: answer so, never start one from nothing.
      this.ctx.stopSelf();
      throw new UnknownEntityError('session');
    }
    switch (command.$case) {
      case 'resume':
        return this.#resume(identity, command.resume);
      case 'detach':
        this.#detach(command.detach);
        return EMPTY;
      case 'dispatch':
        this.#dispatch(identity, command.dispatch);
        return EMPTY;
      case 'heartbeat':
        return EMPTY;
      case 'clientOp':
        await handleClientOp(this.#port(identity), command.clientOp.op, command.clientOp.dataJson);
        return EMPTY;
      case 'expire':
        if (!this.#socket && this.#detachedAt === Number(command.expire.detachedAt)) this.#end();
        return EMPTY;
      case 'joinedGuild':
        await this.#join(identity, command.joinedGuild.guildId);
        return EMPTY;
      case 'leftGuild':
        this.#leave(command.leftGuild.guildId);
        return EMPTY;
      default:
        return unhandled(command);
    }
  }

  override canPassivate(): boolean {
    if (this.#identity === undefined || this.#ended) return true;
    if (this.#socket !== undefined || this.#detachedAt === undefined) return false;
    return this.ctx.clock.now() - this.#detachedAt >= this.options.resumeWindowMs;
  }

  override deactivate(): Promise<void> {
    this.#end();
    return Promise.resolve();
  }

  async #identify(command: Identify): Promise<SessionReply> {
    if (this.#identity) throw new ConflictError('Session already identified');
    let auth: Authenticated;
    try {
      auth = await authenticate(this.ctx, this.options.tokenSecret, command.token);
    } catch (error) {
      this.ctx.stopSelf();
      throw error;
    }
    const identity: Identity = {
      userId: auth.caller.userId,
      caller: auth.caller,
      intents: Number(command.intents),
      intentsText: command.intents,
      shardId: command.shardId,
      shardCount: command.shardCount,
    };
    this.#identity = identity;
    this.#socket = command.socket;
    this.#status = presenceStatus(command.presenceJson);
    const sessionId = this.ctx.key;
    this.ctx.tell('user', identity.userId, {
      command: {
        $case: 'attachSession',
        attachSession: { sessionId, shardId: identity.shardId, intents: identity.intentsText },
      },
    });
    const onShard = auth.guildIds.filter((id) => isOnShard(id, identity.shardId, identity.shardCount));
    const [subscribed, extras] = await Promise.all([
      Promise.all(onShard.map((id) => this.#subscribe(identity, id))),
      auth.caller.bot ? undefined : userExtras(this.ctx, auth.caller),
    ]);
    const guildIds = onShard.filter((_, index) => subscribed[index] !== undefined);
    const guildJsons = subscribed.filter((json): json is string => json !== undefined);
    const ready = readyPayload({
      version: command.version,
      sessionId,
      resumeGatewayUrl: this.options.gatewayUrl,
      userId: identity.userId,
      userJson: auth.userJson,
      bot: auth.caller.bot,
      applicationId: auth.applicationId || identity.userId,
      shard: command.shardCount > 0 ? [command.shardId, command.shardCount] : undefined,
      guildIds,
      guildJsons,
      privateChannelsJson: extras?.privateChannelsJson ?? '[]',
      relationshipsJson: extras?.relationshipsJson ?? '[]',
      userSettingsJson: extras?.userSettingsJson ?? '{}',
      status: this.#status,
      propertiesJson: command.propertiesJson,
    });
    this.#seq = 1;
    this.#buffer.setFloor(1); // READY itself is not replayable: a client that missed it identifies again
    const frames = [dispatchFrame('READY', 1, ready)];
    if (auth.caller.bot && hasIntentBit(identity.intents, IntentBit.Guilds)) {
      for (const json of guildJsons) frames.push(this.#record('GUILD_CREATE', json));
    }
    this.#push(frames);
    return { reply: { $case: 'identified', identified: { userId: identity.userId } } };
  }

  async #resume(identity: Identity, command: Resume): Promise<SessionReply> {
    // The token must still be valid (it may have been revoked since Identify) and be this user's.
    const auth = await authenticate(this.ctx, this.options.tokenSecret, command.token).catch(() => undefined);
    if (auth?.caller.userId !== identity.userId) throw new UnknownEntityError('session');
    const frames = this.#buffer.framesAfter(Number(command.seq), this.#seq);
    if (!frames) {
      this.#end(); // the client will identify again; nothing can bring this one back
      throw new UnknownEntityError('session');
    }
    const old = this.#socket;
    if (old && old.socketId !== command.socket?.socketId) this.ctx.pushFrames(old.nodeId, old.socketId, [], 4000);
    this.#socket = command.socket;
    this.#detachedAt = undefined;
    this.#cancelExpiry?.();
    this.#cancelExpiry = undefined;
    this.#seq += 1;
    frames.push(dispatchFrame('RESUMED', this.#seq, RESUMED_DATA));
    this.#push(frames);
    return EMPTY;
  }

  #detach(command: Detach): void {
    if (this.#socket?.socketId !== command.socketId) return; // an old socket, already replaced by a resume
    this.#socket = undefined;
    if (command.invalidate) {
      this.#end();
      return;
    }
    const at = this.ctx.clock.now();
    this.#detachedAt = at;
    this.#cancelExpiry?.();
    this.#cancelExpiry = this.ctx.tellSelfAfter(this.options.resumeWindowMs, {
      command: { $case: 'expire', expire: { detachedAt: String(at) } },
    });
  }

  #dispatch(identity: Identity, event: DispatchEvent): void {
    if (!allowsDispatch(identity.intents, event.intent)) return;
    let data = event.dataJson;
    if (identity.caller.bot && !hasIntentBit(identity.intents, IntentBit.MessageContent)) {
      data = withoutMessageContent(event.event, data, identity.userId);
    }
    this.#push([this.#record(event.event, data)]);
  }

  async #join(identity: Identity, guildId: string): Promise<void> {
    if (this.#guilds.has(guildId) || !isOnShard(guildId, identity.shardId, identity.shardCount)) return;
    const json = await this.#subscribe(identity, guildId);
    if (json !== undefined && hasIntentBit(identity.intents, IntentBit.Guilds)) {
      this.#push([this.#record('GUILD_CREATE', json)]);
    }
  }

  #leave(guildId: string): void {
    if (!this.#guilds.delete(guildId)) return;
    this.ctx.tell('guild', guildId, { command: { $case: 'unsubscribe', unsubscribe: { sessionId: this.ctx.key } } });
  }

  /** Subscribes to one guild; its GUILD_CREATE payload, or undefined when the guild refused or failed. */
  async #subscribe(identity: Identity, guildId: string): Promise<string | undefined> {
    const json = await subscribeToGuild(this.ctx, guildId, identity.userId, identity.intentsText);
    if (json !== undefined) this.#guilds.add(guildId);
    return json;
  }

  /** Assigns the next sequence number and keeps the frame for replay. */
  #record(event: string, dataJson: string): string {
    this.#seq += 1;
    const frame = dispatchFrame(event, this.#seq, dataJson);
    this.#buffer.append(this.#seq, frame);
    return frame;
  }

  #push(frames: string[]): void {
    const socket = this.#socket;
    if (socket && frames.length > 0) this.ctx.pushFrames(socket.nodeId, socket.socketId, frames);
  }

  #port(identity: Identity): SessionPort {
    return {
      ctx: this.ctx,
      sessionId: this.ctx.key,
      userId: identity.userId,
      caller: identity.caller,
      guildIds: this.#guilds,
      emit: (event, dataJson, intent) => {
        if (allowsDispatch(identity.intents, intent)) this.#push([this.#record(event, dataJson)]);
      },
      setStatus: (status) => {
        this.#status = status;
      },
    };
  }

  /** Ends the session: leaves its guilds and its user, then stops. */
  #end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#cancelExpiry?.();
    const sessionId = this.ctx.key;
    for (const guildId of this.#guilds) {
      this.ctx.tell('guild', guildId, { command: { $case: 'unsubscribe', unsubscribe: { sessionId } } });
    }
    this.#guilds.clear();
    const identity = this.#identity;
    if (identity) {
      this.ctx.tell('user', identity.userId, {
        command: {
          $case: 'detachSession',
          detachSession: { sessionId, shardId: identity.shardId, intents: identity.intentsText },
        },
      });
    }
    this.ctx.stopSelf();
  }
}

function unhandled(command: never): never {
  throw new UnknownEntityError(command);
}
