import type { LeaseGrant, LeaseTable } from '../../../actors/runtime/ports/coordination.js';
import { ServiceUnavailableError } from '../../domain/errors.js';
import type { RedisConnection } from './connectRedis.js';
import { assertNoClientPrefix, RedisScript } from './redisScript.js';

// The lease value is `nodeId|epoch` with a PX expiry. Epochs come from one counter for all keys, so
// they only grow for every key and no counter is left behind per actor (a session id is used once).
const ACQUIRE = new RedisScript(
  'chorusLeaseAcquire',
  `local current = redis.call('GET', KEYS[1])
if current and string.match(current, '^(.*)|%d+$') ~= ARGV[1] then return 0 end
local epoch = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. epoch, 'PX', ARGV[2])
return epoch`,
);

// Returns the 1-based positions of the keys this node no longer holds.
const RENEW = new RedisScript(
  'chorusLeaseRenew',
  `local prefix = ARGV[1] .. '|'
local lost = {}
for index, key in ipairs(KEYS) do
  local current = redis.call('GET', key)
  if current and string.sub(current, 1, #prefix) == prefix then
    redis.call('PEXPIRE', key, ARGV[2])
  else
    lost[#lost + 1] = index
  end
end
return lost`,
);

const RELEASE = new RedisScript(
  'chorusLeaseRelease',
  `local current = redis.call('GET', KEYS[1])
if not current then return 0 end
if ARGV[2] ~= '' then
  if current == ARGV[1] .. '|' .. ARGV[2] then return redis.call('DEL', KEYS[1]) end
  return 0
end
if string.match(current, '^(.*)|%d+$') == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`,
);

/** A fence check waiting for its round trip. */
interface WaitingCheck {
  readonly key: string;
  /** The value the key holds while the asking node's lease stands: `nodeId|epoch`. */
  readonly holder: string;
  readonly resolve: (held: boolean) => void;
  readonly reject: (error: unknown) => void;
}

/** Keys per renew script call, so one call never blocks Redis for long; all calls share one round trip. */
const RENEW_CHUNK = 1_000;

/** Options of the Redis lease table. */
export interface RedisLeaseOptions {
  /** Prefix of every key (e.g. `chorus:`). */
  readonly keyPrefix: string;
}

/**
 * Actor leases in Redis (DESIGN §2 single activation): `<prefix>lease:<kind:key>` = `nodeId|epoch`
 * with a PX expiry, written only by Lua scripts so acquire, renew and release are atomic.
 * Every key a script touches is passed in KEYS; on Redis Cluster use a hash-tagged prefix
 * (`{chorus}:`) so the lease keys and the epoch counter share a slot.
 */
export class RedisLeaseTable implements LeaseTable {
  readonly #prefix: string;
  /** Fence checks asked for while a check round trip is out: they leave together when it is back. */
  #waiting: WaitingCheck[] = [];
  #checking = false;

  constructor(
    private readonly redis: RedisConnection,
    options: RedisLeaseOptions,
  ) {
    assertNoClientPrefix(redis);
    this.#prefix = `${options.keyPrefix}lease:`;
  }

  async acquire(actorKey: string, nodeId: string, ttlMs: number): Promise<LeaseGrant | undefined> {
    assertNodeId(nodeId);
    const epoch = Number(
      await this.#call(ACQUIRE.run(this.redis, [this.#key(actorKey), `${this.#prefix}epoch`], [nodeId, ttlMs])),
    );
    return epoch > 0 ? { epoch } : undefined;
  }

  async renew(actorKeys: readonly string[], nodeId: string, ttlMs: number): Promise<string[]> {
    assertNodeId(nodeId);
    const chunks: string[][] = [];
    for (let start = 0; start < actorKeys.length; start += RENEW_CHUNK)
      chunks.push(actorKeys.slice(start, start + RENEW_CHUNK));
    const replies = await this.#call(
      Promise.all(
        chunks.map((chunk) =>
          RENEW.run(
            this.redis,
            chunk.map((actorKey) => this.#key(actorKey)),
            [nodeId, ttlMs],
          ),
        ),
      ),
    );
    const lost: string[] = [];
    replies.forEach((reply, chunk) => {
      for (const position of reply as number[]) lost.push(chunks[chunk]?.[position - 1] as string);
    });
    return lost;
  }

  async release(actorKey: string, nodeId: string, epoch?: number): Promise<void> {
    await this.#call(RELEASE.run(this.redis, [this.#key(actorKey)], [nodeId, epoch === undefined ? '' : epoch]));
  }

  /**
   * The commit fence's question, one per write. Checks asked while one round trip is out go together in
   * the next (one MGET), like a group commit: each is still sent after it was asked, so every answer is
   * as fresh as a GET of its own would be, and a node writing for many actors at once pays one Redis
   * command a round trip instead of one a write (docs/scaling.md, "Cost per message").
   */
  check(actorKey: string, nodeId: string, epoch: number): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ key: this.#key(actorKey), holder: `${nodeId}|${epoch}`, resolve, reject });
      if (!this.#checking) {
        this.#checking = true;
        queueMicrotask(() => void this.#checkWaiting()); // the checks of this turn join the first
      }
    });
  }

  async #checkWaiting(): Promise<void> {
    while (this.#waiting.length > 0) {
      const batch = this.#waiting;
      this.#waiting = [];
      try {
        const values =
          batch.length === 1
            ? [await this.#call(this.redis.get(batch[0]?.key ?? ''))]
            : await this.#call(this.redis.mGet(batch.map((check) => check.key)));
        batch.forEach((check, index) => {
          check.resolve(values[index] === check.holder);
        });
      } catch (error) {
        for (const check of batch) check.reject(error);
      }
    }
    this.#checking = false;
  }

  #key(actorKey: string): string {
    return this.#prefix + actorKey;
  }

  /** Redis failures become ServiceUnavailableError: nothing was decided, the caller may retry. */
  async #call<T>(reply: Promise<T>): Promise<T> {
    try {
      return await reply;
    } catch (error) {
      throw new ServiceUnavailableError(
        `Lease table unavailable: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}

function assertNodeId(nodeId: string): void {
  // `|` separates the holder from the epoch in the stored value.
  if (nodeId.includes('|')) throw new Error(`Node id must not contain "|": ${nodeId}`);
}
