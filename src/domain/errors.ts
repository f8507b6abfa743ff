/** Transport-neutral category of an error; each boundary (HTTP, gRPC, gateway) maps it once. */
export type ErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'too_large'
  | 'rate_limited'
  | 'overloaded'
  | 'unavailable'
  | 'moved'
  | 'internal';

/** One leaf of Discord's nested `errors` tree: `{ _errors: [{ code, message }] }`. */
export interface FieldErrorLeaf {
  readonly code: string;
  readonly message: string;
}

/** Nested error tree mirroring the request body, as Discord returns it with code 50035. */
export interface FieldErrorTree {
  [key: string]: FieldErrorTree | FieldErrorLeaf[];
}

/** Base of every error Chorus throws on purpose; anything else becomes InternalError. */
export abstract class AppError extends Error {
  abstract readonly kind: ErrorKind;
  abstract readonly httpStatus: number;

  constructor(
    message: string,
    readonly discordCode = 0,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }

  /** The Discord-shaped JSON body for this error. */
  toDiscordJson(): Record<string, unknown> {
    return { code: this.discordCode, message: this.message };
  }
}

/** The request body (or a query, or a gateway payload) fails its schema. */
export class ValidationError extends AppError {
  readonly kind = 'invalid';
  readonly httpStatus = 400;

  constructor(readonly fieldErrors: FieldErrorTree = {}) {
    super('Invalid Form Body', 50_035);
  }

  /** A ValidationError naming one field (dotted paths become nested keys). */
  static field(path: string, code: string, message: string): ValidationError {
    const tree: FieldErrorTree = {};
    let node = tree;
    const parts = path.split('.');
    parts.forEach((part, index) => {
      if (index === parts.length - 1) {
        node[part] = { _errors: [{ code, message }] };
      } else {
        const next: FieldErrorTree = {};
        node[part] = next;
        node = next;
      }
    });
    return new ValidationError(tree);
  }

  override toDiscordJson(): Record<string, unknown> {
    return { code: this.discordCode, message: this.message, errors: this.fieldErrors };
  }
}

/** A request that is well-formed but refused by a Discord rule with its own code (e.g. 50006 empty message). */
export class BadRequestError extends AppError {
  readonly kind = 'invalid';
  readonly httpStatus = 400;
}

/** No valid credential was presented. */
export class UnauthorizedError extends AppError {
  readonly kind = 'unauthenticated';
  readonly httpStatus = 401;

  constructor(message = '401: Unauthorized', code = 0) {
    super(message, code);
  }
}

/** The caller cannot see the resource at all (Discord 50001). */
export class MissingAccessError extends AppError {
  readonly kind = 'forbidden';
  readonly httpStatus = 403;

  constructor(message = 'Missing Access') {
    super(message, 50_001);
  }
}

/** The caller sees the resource but lacks a permission or instance right (Discord 50013). */
export class MissingPermissionsError extends AppError {
  readonly kind = 'forbidden';
  readonly httpStatus = 403;

  constructor(
    readonly missing = '',
    message = 'Missing Permissions',
  ) {
    super(message, 50_013);
  }
}

/** Refused for a reason with its own Discord code (e.g. 50005 editing another user's message). */
export class ForbiddenError extends AppError {
  readonly kind = 'forbidden';
  readonly httpStatus = 403;
}

const UNKNOWN = {
  account: 10_001,
  application: 10_002,
  channel: 10_003,
  guild: 10_004,
  invite: 10_006,
  member: 10_007,
  message: 10_008,
  overwrite: 10_009,
  role: 10_011,
  token: 10_012,
  user: 10_013,
  emoji: 10_014,
  webhook: 10_015,
  ban: 10_026,
  sku: 10_027,
  'store listing': 10_028,
  sticker: 10_060,
  template: 10_057,
  'application command': 10_063,
  'application command permissions': 10_066,
  interaction: 10_062,
  'voice state': 10_065,
  session: 0,
} as const;

/** Entities that have an "Unknown X" Discord error code. */
export type UnknownEntity = keyof typeof UNKNOWN;

/** The entity in the route does not exist, or the caller may not know it exists. */
export class UnknownEntityError extends AppError {
  readonly kind = 'not_found';
  readonly httpStatus = 404;

  constructor(readonly entity: UnknownEntity) {
    super(`Unknown ${entity[0]?.toUpperCase() ?? ''}${entity.slice(1)}`, UNKNOWN[entity]);
  }
}

/** No route matches the method and path. */
export class RouteNotFoundError extends AppError {
  readonly kind = 'not_found';
  readonly httpStatus = 404;

  constructor() {
    super('404: Not Found', 0);
  }
}

/** A uniqueness rule was broken (username taken, vanity code in use). */
export class ConflictError extends AppError {
  readonly kind = 'conflict';
  readonly httpStatus = 409;
}

/** The request body exceeds the configured cap (Discord 40005). */
export class PayloadTooLargeError extends AppError {
  readonly kind = 'too_large';
  readonly httpStatus = 413;

  constructor() {
    super('Request entity too large', 40_005);
  }
}

/** A rate-limit bucket is empty; carries what the 429 body and headers need. */
export class RateLimitedError extends AppError {
  readonly kind = 'rate_limited';
  readonly httpStatus = 429;

  constructor(
    readonly retryAfterMs: number,
    readonly global = false,
    readonly bucket = 'global',
    readonly limit = 0,
  ) {
    super('You are being rate limited.', 0);
  }

  override toDiscordJson(): Record<string, unknown> {
    return { message: this.message, retry_after: this.retryAfterMs / 1000, global: this.global, code: 0 };
  }
}

/** An actor's mailbox is full: refused early rather than queued without bound. */
export class ActorOverloadedError extends AppError {
  readonly kind = 'overloaded';
  readonly httpStatus = 503;

  constructor(message = 'Service overloaded, try again') {
    super(message, 0);
  }
}

/** A dependency (storage, a peer node) cannot take the request now; nothing was committed. */
export class ServiceUnavailableError extends AppError {
  readonly kind = 'unavailable';
  readonly httpStatus = 503;

  constructor(message = 'Service unavailable, try again') {
    super(message, 0);
  }
}

/** The call reached a node that does not own the actor; never leaves cluster/ (re-resolve, retry once). */
export class WrongOwnerError extends AppError {
  readonly kind = 'moved';
  readonly httpStatus = 503;

  constructor(message = 'Actor moved') {
    super(message, 0);
  }
}

/** Anything that was not thrown on purpose. */
export class InternalError extends AppError {
  readonly kind = 'internal';
  readonly httpStatus = 500;

  constructor(options?: ErrorOptions) {
    super('500: Internal Server Error', 0, options);
  }
}

/** Converts anything thrown into an AppError, wrapping the unknown as InternalError with its cause. */
export function toAppError(thrown: unknown): AppError {
  return thrown instanceof AppError ? thrown : new InternalError({ cause: thrown });
}
