import type { ChainableCommander, Redis } from 'ioredis';
import { ServiceUnavailableError } from '../../domain/errors.js';

/** A Lua script run through a RedisBatch (EVALSHA, with EVAL after a NOSCRIPT, as ioredis does). */
export interface BatchScript {
  readonly name: string;
  readonly lua: string;
}

type ScriptCall = (numberOfKeys: number, ...keysThenArgs: (string | number)[]) => unknown;

interface Queued {
  readonly add: (pipeline: ChainableCommander) => void;
  readonly resolve: (reply: unknown) => void;
  readonly reject: (error: Error) => void;
}

/**
 * Gathers the commands issued during one turn of the event loop and sends them as one pipeline: a
 * fan-out that wakes 1,000 Session actors at once costs one round trip to Redis, not 1,000. Each
 * command still settles on its own reply; a failed pipeline fails every command in it.
 */
export class RedisBatch {
  #queue: Queued[] = [];
  #scheduled = false;
  readonly #defined = new Set<string>();

  constructor(private readonly redis: Redis) {}

  /** Queues one command added by `add` (exactly one per call); resolves with its reply. */
  command(add: (pipeline: ChainableCommander) => void): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ add, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => {
          this.#flush();
        });
      }
    });
  }

  /** Queues a script call with `keys` as KEYS and `args` as ARGV. */
  script(script: BatchScript, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    if (!this.#defined.has(script.name)) {
      this.redis.defineCommand(script.name, { lua: script.lua });
      this.#defined.add(script.name);
    }
    return this.command((pipeline) => {
      const call = (pipeline as unknown as Record<string, ScriptCall>)[script.name] as ScriptCall;
      call.call(pipeline, keys.length, ...keys, ...args);
    });
  }

  #flush(): void {
    this.#scheduled = false;
    const queued = this.#queue;
    this.#queue = [];
    if (queued.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const item of queued) item.add(pipeline);
    pipeline.exec().then(
      (results) => {
        queued.forEach((item, index) => {
          const [error, reply] = results?.[index] ?? [new Error('Redis returned no reply'), undefined];
          if (error) item.reject(unavailable(error));
          else item.resolve(reply);
        });
      },
      (error: unknown) => {
        for (const item of queued) item.reject(unavailable(error));
      },
    );
  }
}

function unavailable(error: unknown): Error {
  return new ServiceUnavailableError(`Redis: ${error instanceof Error ? error.message : String(error)}`);
}
