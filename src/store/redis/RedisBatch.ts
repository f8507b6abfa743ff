import { ServiceUnavailableError } from '../../domain/errors.js';
import type { RedisConnection } from './connectRedis.js';
import { isNoScript, type RedisScript } from './redisScript.js';

interface Queued {
  readonly command: readonly string[];
  readonly script?: {
    readonly source: RedisScript;
    readonly keys: readonly string[];
    readonly args: readonly (string | number)[];
  };
  readonly resolve: (reply: unknown) => void;
  readonly reject: (error: Error) => void;
}

/**
 * Gathers the commands issued during one turn of the event loop and hands them to the client
 * together, which writes what it was given in one turn as one pipeline: a fan-out that wakes 1,000
 * Session actors at once costs one round trip to Redis, not 1,000. Each command settles on its own
 * reply (and fails on its own: offline, timed out, refused). A script is sent as EVALSHA; one that
 * Redis does not know (restarted empty) is sent again as EVAL.
 */
export class RedisBatch {
  #queue: Queued[] = [];
  #scheduled = false;

  constructor(private readonly redis: RedisConnection) {}

  /** Queues one command (`['HSET', key, field, value]`); resolves with its reply. */
  command(command: readonly string[]): Promise<unknown> {
    return this.#enqueue({ command });
  }

  /** Queues a script call with `keys` as KEYS and `args` as ARGV. */
  script(source: RedisScript, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    return this.#enqueue({ command: source.command('EVALSHA', keys, args), script: { source, keys, args } });
  }

  #enqueue(item: Omit<Queued, 'resolve' | 'reject'>): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ ...item, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => {
          this.#flush();
        });
      }
    });
  }

  #flush(): void {
    this.#scheduled = false;
    const queued = this.#queue;
    this.#queue = [];
    for (const item of queued) {
      this.#send(item.command).then(item.resolve, (error: unknown) => {
        if (item.script && isNoScript(error)) {
          const { source, keys, args } = item.script;
          this.#send(source.command('EVAL', keys, args)).then(item.resolve, (retried: unknown) => {
            item.reject(unavailable(retried));
          });
        } else item.reject(unavailable(error));
      });
    }
  }

  #send(command: readonly string[]): Promise<unknown> {
    return this.redis.sendCommand([...command]);
  }
}

function unavailable(error: unknown): Error {
  return new ServiceUnavailableError(`Redis: ${error instanceof Error ? error.message : String(error)}`);
}
