import type { ActorContext } from '../../../actors/runtime/ActorContext.js';
import type { ActorKind, CommandOf, ReplyOf } from '../../../actors/runtime/ActorKind.js';
import type { GuildCommand, GuildReply } from '../../../proto/gen/chorus/v1/guild.js';
import type { Identify, SessionCommand } from '../../../proto/gen/chorus/v1/session.js';
import type { UserCommand, UserReply } from '../../../proto/gen/chorus/v1/user.js';
import { ManualClock } from '../../../src/domain/Clock.js';
import { UnauthorizedError } from '../../../src/domain/errors.js';
import { createLogger } from '../../../src/domain/Logger.js';
import { SnowflakeGenerator } from '../../../src/domain/snowflake.js';
import { signToken } from '../../../src/domain/tokens.js';

export const SECRET = 'unit-secret';
export const USER = '100';
export const GUILD_A = (1_000_000n << 22n).toString(); // shard 0 of 2
export const GUILD_B = (1_000_001n << 22n).toString(); // shard 1 of 2
export const token = signToken(SECRET, { userId: USER, generation: 0, issuedAtMs: 0 });
export const ALL_INTENTS = String(0x1ffff);

/** An Identify from socket `s1` of `nodeId` with every intent, as the gateway hands it to a Session; `extra` overrides. */
export function identifyCommand(nodeId: string, extra: Partial<Identify> = {}): SessionCommand {
  return {
    command: {
      $case: 'identify',
      identify: {
        socket: { nodeId, socketId: 's1' },
        token,
        intents: ALL_INTENTS,
        shardId: 0,
        shardCount: 0,
        propertiesJson: '{"os":"linux"}',
        presenceJson: '',
        capabilities: 0,
        gatewayUrl: '',
        version: 10,
        ...extra,
      },
    },
  };
}

export interface Pushed {
  socketId: string;
  frames: readonly string[];
  closeCode: number;
}

/** An ActorContext whose User and Guild actors are scripted, recording what the session sends. */
export class FakeContext implements ActorContext {
  readonly kind = 'session' as const;
  readonly key = 'a'.repeat(32);
  readonly nodeId = 'node@1';
  readonly clock = new ManualClock();
  readonly log = createLogger('silent');
  readonly ids = new SnowflakeGenerator(1);
  readonly pushed: Pushed[] = [];
  readonly told: { kind: ActorKind; key: string; command: unknown }[] = [];
  readonly asked: { kind: ActorKind; key: string; command: unknown }[] = [];
  readonly timers: { delayMs: number; command: unknown }[] = [];
  stopped = false;
  /** True once the session evicted itself (a write refused as stale). */
  evicted = false;
  bot = false;
  guildIds = [GUILD_A, GUILD_B];
  revoked = false;

  ask<K extends ActorKind>(kind: K, key: string, command: CommandOf<K>): Promise<ReplyOf<K>> {
    this.asked.push({ kind, key, command });
    if (kind === 'user')
      return Promise.resolve(this.#user(key, (command as UserCommand).command)) as Promise<ReplyOf<K>>;
    if (kind === 'guild') return Promise.resolve(this.#guild(key, command as GuildCommand)) as Promise<ReplyOf<K>>;
    return Promise.reject(new Error(`unexpected ask to ${kind}`));
  }
  tell<K extends ActorKind>(kind: K, key: string, command: CommandOf<K>): void {
    this.told.push({ kind, key, command });
  }
  fanOut(): void {
    throw new Error('sessions do not fan out');
  }
  pushFrames(_nodeId: string, socketId: string, frames: readonly string[], closeCode = 0): void {
    this.pushed.push({ socketId, frames, closeCode });
  }
  livesHere(): boolean {
    return true;
  }
  tellSelfAfter(delayMs: number, command: CommandOf<ActorKind>): () => void {
    this.timers.push({ delayMs, command });
    return () => undefined;
  }
  stopSelf(): void {
    this.stopped = true;
  }

  evictSelf(): void {
    this.evicted = true;
  }

  /** Frames pushed to a socket, parsed. */
  framesTo(socketId: string): { op: number; t: string; s: number; d: Record<string, unknown> }[] {
    return this.pushed
      .filter((push) => push.socketId === socketId)
      .flatMap((push) =>
        push.frames.map(
          (frame) => JSON.parse(frame) as { op: number; t: string; s: number; d: Record<string, unknown> },
        ),
      );
  }

  #user(userId: string, command: UserCommand['command']): UserReply {
    if (command?.$case === 'authenticate') {
      if (this.revoked) throw new UnauthorizedError();
      const caller = { userId, bot: this.bot, rights: '0' };
      const userJson = JSON.stringify({ id: USER, username: 'alice', bot: this.bot });
      return {
        reply: {
          $case: 'authenticated',
          authenticated: { caller, userJson, guildIds: this.guildIds, applicationId: this.bot ? '555' : '' },
        },
      };
    }
    return { reply: { $case: 'json', json: { json: command?.$case === 'getSettings' ? '{}' : '[]' } } };
  }

  #guild(guildId: string, { command }: GuildCommand): GuildReply {
    if (command?.$case === 'subscribe') {
      const members = [{ user: { id: USER }, roles: [] }];
      return {
        reply: { $case: 'json', json: { json: JSON.stringify({ id: guildId, name: `g${guildId}`, members }) } },
      };
    }
    throw new Error(`unexpected guild command ${command?.$case ?? 'none'}`);
  }
}
