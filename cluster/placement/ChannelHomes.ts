import { ActorKind } from '../../actors/runtime/ActorKind.js';
import { ServiceUnavailableError, UnknownEntityError, type AppError } from '../../src/domain/errors.js';

/**
 * A channel's guild id as stored: a string for a guild channel or thread, null for a DM or group DM,
 * undefined when no such channel is stored (never created, or deleted).
 */
export type ChannelGuildLookup = (channelId: string) => Promise<string | null | undefined>;

/**
 * The ring key an actor is placed by (issue 14 §2): a guild channel or thread by its guild's key
 * (`guild:<guild id>`), so it runs on the node of its Guild and its asks and tells to the Guild stay in
 * one process, and a pin of the guild carries its channels along; a DM or group DM by its own key
 * (`channel:<id>`); every other actor by its own `kind:key`. `channelGuildId` is the channel's guild,
 * null for a private channel.
 */
export function placementKeyOf(kind: ActorKind, key: string, channelGuildId: string | null = null): string {
  if (kind === ActorKind.Channel && channelGuildId !== null) return `${ActorKind.Guild}:${channelGuildId}`;
  return `${kind}:${key}`;
}

/** Called once a channel's ring key is known: undefined when the store has no such channel (or `error`). */
type Waiter = (ringKey: string | undefined, error?: unknown) => void;

const NOTHING = (): void => undefined;

/** Channels remembered at most; the oldest entry goes first when full (looking it up again is one read). */
const DEFAULT_MAX_ENTRIES = 100_000;

/**
 * Where each channel is placed, learned from the store once per channel and node: a channel's guild
 * never changes, so a remembered answer stays true (even after the channel is deleted).
 *
 * Why a lookup rather than the guild id in every address: most callers (an HTTP route, a webhook, an
 * interaction token) name only the channel id, and the node that receives a call must reach the same
 * answer as its sender to agree that it owns the actor; one read of the store gives every node the same
 * answer without changing any address, command or wire format. A channel the store does not know is not
 * remembered (its guild is set when it is created) and not routed: the caller hears 404 Unknown Channel.
 */
export class ChannelHomes {
  readonly #ringKeys = new Map<string, string>();
  readonly #waiting = new Map<string, Waiter[]>();

  /** Without a lookup (embedded tests, a node without a store) every actor is placed by its own key. */
  constructor(
    private readonly lookup?: ChannelGuildLookup,
    private readonly maxEntries = DEFAULT_MAX_ENTRIES,
  ) {}

  /** The ring key of `kind:key` as known here; a channel not looked up yet counts by its own id. */
  ringKeyOf(kind: ActorKind, key: string): string {
    return (kind === ActorKind.Channel ? this.#ringKeys.get(key) : undefined) ?? placementKeyOf(kind, key);
  }

  /**
   * True when a call to `kind:key` must wait for whenPlaced: a channel not looked up here yet (in a ring
   * of one member it is local whatever its guild), or one whose lookup other calls are waiting for (so
   * calls to one channel keep their order).
   */
  mustWait(kind: ActorKind, key: string, ringSize: number): boolean {
    if (kind !== ActorKind.Channel || this.lookup === undefined) return false;
    if (this.#waiting.has(key)) return true;
    return ringSize > 1 && !this.#ringKeys.has(key);
  }

  /** True when `kind:key` is placed by what this node knows (false for a channel it has to look up). */
  knows(kind: ActorKind, key: string): boolean {
    return kind !== ActorKind.Channel || this.lookup === undefined || this.#ringKeys.has(key);
  }

  /** `run` at once, or once this node knows where the channel is placed; rejects as whenPlaced's `missing`. */
  routeAsync<T>(kind: ActorKind, key: string, ringSize: number, run: () => Promise<T>): Promise<T> {
    if (!this.mustWait(kind, key, ringSize)) return run();
    return new Promise<T>((resolve, reject) => {
      const route = (): void => {
        run().then(resolve, reject);
      };
      this.whenPlaced(kind, key, route, reject);
    });
  }

  /** Starts a lookup of a channel this node does not know (hand-off asks again once it is known). */
  learn(kind: ActorKind, key: string): void {
    if (!this.knows(kind, key)) this.whenPlaced(kind, key, NOTHING, NOTHING);
  }

  /**
   * Runs `route` once the channel's placement is known, after one lookup shared by every call that waits
   * meanwhile; waiting calls run in call order. `missing` gets 404 Unknown Channel when the store has no
   * such channel, 503 when it could not be read.
   */
  whenPlaced(kind: ActorKind, key: string, route: () => void, missing: (error: AppError) => void): void {
    this.#resolve(key, (ringKey, error) => {
      if (ringKey !== undefined) route();
      else if (error === undefined) missing(new UnknownEntityError('channel'));
      // The driver's message stays out of the reply (it reaches the client); the next call looks up again.
      else missing(new ServiceUnavailableError(`Cannot place ${kind}:${key} now: its record could not be read`));
    });
  }

  #resolve(channelId: string, then: Waiter): void {
    const queue = this.#waiting.get(channelId);
    if (queue) {
      queue.push(then);
      return;
    }
    const known = this.#ringKeys.get(channelId);
    if (known !== undefined || this.lookup === undefined) {
      then(known ?? placementKeyOf(ActorKind.Channel, channelId));
      return;
    }
    this.#waiting.set(channelId, [then]);
    this.lookup(channelId).then(
      (guildId) => {
        this.#settle(channelId, guildId === undefined ? undefined : this.#remember(channelId, guildId));
      },
      (error: unknown) => {
        this.#settle(channelId, undefined, error ?? new Error('channel lookup failed'));
      },
    );
  }

  #remember(channelId: string, guildId: string | null): string {
    const ringKey = placementKeyOf(ActorKind.Channel, channelId, guildId);
    if (this.#ringKeys.size >= this.maxEntries) {
      const oldest = this.#ringKeys.keys().next();
      if (oldest.done !== true) this.#ringKeys.delete(oldest.value);
    }
    this.#ringKeys.set(channelId, ringKey);
    return ringKey;
  }

  /**
   * Runs the waiters in order. The entry is dropped only after the last one ran: a call one of them
   * makes to the same channel joins the end of the queue instead of overtaking the rest.
   */
  #settle(channelId: string, ringKey: string | undefined, error?: unknown): void {
    for (const waiter of this.#waiting.get(channelId) ?? []) waiter(ringKey, error);
    this.#waiting.delete(channelId);
  }
}
