import { validate } from '../../src/contract/validate.js';
import type { Identify } from '../../proto/gen/chorus/v1/session.js';
import { isJsonObject, parseJson } from '../../src/domain/jsonValue.js';
import type { ActorContext } from '../runtime/ActorContext.js';
import { ActorKind } from '../runtime/ActorKind.js';

/** A presence a client set, as checked against the spec's ActivitySchema. */
export interface ClientPresence {
  readonly status: string;
  readonly activities: readonly unknown[];
}

/** Op 3 updates a session may send per window; more are dropped (the notes read Discord as 5 per 20 s, the issue 5 per 60 s). */
const PRESENCE_UPDATES = 5;
const PRESENCE_WINDOW_MS = 60_000;

/**
 * The presence in an Identify `presence` or an op 3 `d`; undefined when it breaks the schema (an unknown
 * status, too many activities, strings past Discord's lengths): the update is dropped, the session lives.
 * Lenient where real clients are: bots leave out the status at Identify (online) and an activity's
 * type (playing); fields the schema does not know are removed by validate.
 */
export function clientPresence(value: unknown, atIdentify: boolean): ClientPresence | undefined {
  if (!isJsonObject(value)) return undefined;
  const body: Record<string, unknown> = { ...value };
  if (atIdentify && body['status'] === undefined) body['status'] = 'online';
  if (body['activities'] === null) delete body['activities'];
  if (body['since'] === 0) body['since'] = null;
  if (Array.isArray(body['activities'])) {
    body['activities'] = body['activities'].map((activity: unknown) =>
      isJsonObject(activity) && activity['type'] === undefined ? { ...activity, type: 0 } : activity,
    );
  }
  try {
    const checked = validate('ActivitySchema', body);
    return { status: checked.status, activities: checked.activities ?? [] };
  } catch {
    return undefined;
  }
}

/** The Identify presence text (empty: none given, online). */
export function identifyPresence(presenceJson: string): ClientPresence | undefined {
  if (!presenceJson) return { status: 'online', activities: [] };
  try {
    return clientPresence(parseJson(presenceJson), true);
  } catch {
    return undefined;
  }
}

/** client_status key of a session, from Identify `properties`: mobile OSes, the desktop app, else web. */
export function platformOf(propertiesJson: string): string {
  let properties: unknown;
  try {
    properties = parseJson(propertiesJson || '{}');
  } catch {
    return 'web';
  }
  if (!isJsonObject(properties)) return 'web';
  const text = (key: string): string => {
    const value = properties[key] ?? properties[`$${key}`];
    return typeof value === 'string' ? value.toLowerCase() : '';
  };
  if (
    ['android', 'ios'].includes(text('os')) ||
    text('browser').startsWith('discord android') ||
    text('browser').startsWith('discord ios')
  )
    return 'mobile';
  if (text('browser') === 'discord client') return 'desktop';
  return 'web';
}

/** Tells the user's actor this session's presence (it aggregates the user's sessions and tells the guilds). */
export function tellPresence(
  ctx: ActorContext,
  userId: string,
  presence: ClientPresence,
  platform: string,
  restored = false,
): void {
  ctx.tell(ActorKind.User, userId, {
    command: {
      $case: 'sessionPresence',
      sessionPresence: {
        sessionId: ctx.key,
        status: presence.status,
        activitiesJson: JSON.stringify(presence.activities),
        platform,
        restored,
      },
    },
  });
}

/** Op 3 budget of one session: at most PRESENCE_UPDATES in any PRESENCE_WINDOW_MS (kept in memory). */
export class PresenceBudget {
  readonly #times: number[] = [];

  /** True (and counted) when an update at `nowMs` fits the budget. */
  take(nowMs: number): boolean {
    while (this.#times.length > 0 && (this.#times[0] ?? 0) <= nowMs - PRESENCE_WINDOW_MS) this.#times.shift();
    if (this.#times.length >= PRESENCE_UPDATES) return false;
    this.#times.push(nowMs);
    return true;
  }
}

/**
 * What a Session actor keeps of its presence: the client_status platform (in memory: a session taken
 * over by another node counts as web) and its op 3 budget. It tells the User actor each accepted change.
 */
export class SessionPresenceLink {
  #platform = 'web';
  readonly #budget = new PresenceBudget();

  /** Identify: the platform from `properties` (bots are web) and the presence the client identified with. */
  identified(ctx: ActorContext, userId: string, bot: boolean, command: Identify): void {
    this.#platform = bot ? 'web' : platformOf(command.propertiesJson);
    const presence = identifyPresence(command.presenceJson);
    if (presence) tellPresence(ctx, userId, presence, this.#platform);
  }

  /**
   * A session taken over (its node died, or it passivated) or resumed tells its User actor its stored status
   * again: that actor may have lost its presences (its node died too). Activities are not stored; the next
   * op 3 brings them back.
   */
  restored(ctx: ActorContext, userId: string, status: string): void {
    const presence = clientPresence({ status }, false);
    if (presence) tellPresence(ctx, userId, presence, this.#platform, true);
  }

  /**
   * Op 3: an accepted presence sets the session's status (true); one over the budget or not a presence
   * is dropped (false).
   */
  update(ctx: ActorContext, userId: string, body: unknown, session: { status: string }): boolean {
    if (!this.#budget.take(ctx.clock.now())) return false;
    const presence = clientPresence(body, false);
    if (!presence) return false;
    session.status = presence.status;
    tellPresence(ctx, userId, presence, this.#platform);
    return true;
  }
}
