import { Metadata, status, type StatusObject } from '@grpc/grpc-js';
import type * as Errors from '../../src/domain/errors.js';
import {
  ActorOverloadedError,
  AppError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  InternalError,
  MissingAccessError,
  MissingPermissionsError,
  PayloadTooLargeError,
  RateLimitedError,
  RouteNotFoundError,
  ServiceUnavailableError,
  UnauthorizedError,
  UnknownEntityError,
  ValidationError,
  WrongOwnerError,
  toAppError,
  type ErrorKind,
  type FieldErrorTree,
  type UnknownEntity,
} from '../../src/domain/errors.js';

/** Trailing metadata key carrying the AppError as JSON (`-bin`: grpc-js base64s it on the wire). */
export const APP_ERROR_KEY = 'x-app-error-bin';

/** The gRPC status of each error kind (S3); `satisfies` keeps it exhaustive when a kind is added. */
export const GRPC_STATUS = {
  invalid: status.INVALID_ARGUMENT,
  unauthenticated: status.UNAUTHENTICATED,
  forbidden: status.PERMISSION_DENIED,
  not_found: status.NOT_FOUND,
  conflict: status.ALREADY_EXISTS,
  // gRPC itself reports an oversized message as RESOURCE_EXHAUSTED, so a too-large body maps there too.
  too_large: status.RESOURCE_EXHAUSTED,
  rate_limited: status.RESOURCE_EXHAUSTED,
  overloaded: status.RESOURCE_EXHAUSTED,
  unavailable: status.UNAVAILABLE,
  moved: status.FAILED_PRECONDITION,
  internal: status.INTERNAL,
} as const satisfies Record<ErrorKind, status>;

/** What crosses the wire: enough to rebuild the same class with the same fields. */
export interface AppErrorPayload {
  readonly name: string;
  readonly discordCode: number;
  readonly message: string;
  readonly fieldErrors?: FieldErrorTree;
  readonly entity?: string;
  readonly missing?: string;
  readonly retryAfterMs?: number;
  readonly global?: boolean;
  readonly bucket?: string;
  readonly limit?: number;
}

type ErrorsModule = typeof Errors;
/** Names of the concrete AppError classes exported by src/domain/errors.ts. */
type AppErrorName = Exclude<
  {
    [K in keyof ErrorsModule]: ErrorsModule[K] extends abstract new (...args: never[]) => AppError ? K : never;
  }[keyof ErrorsModule],
  'AppError'
>;

/** Rebuilds each class from its payload; keyed by class name, exhaustive over errors.ts at compile time. */
const RESTORE = {
  ValidationError: (p) => new ValidationError(p.fieldErrors ?? {}),
  BadRequestError: (p) => new BadRequestError(p.message, p.discordCode),
  UnauthorizedError: (p) => new UnauthorizedError(p.message, p.discordCode),
  MissingAccessError: (p) => new MissingAccessError(p.message),
  MissingPermissionsError: (p) => new MissingPermissionsError(p.missing ?? '', p.message),
  ForbiddenError: (p) => new ForbiddenError(p.message, p.discordCode),
  UnknownEntityError: (p) => new UnknownEntityError((p.entity ?? 'session') as UnknownEntity),
  RouteNotFoundError: () => new RouteNotFoundError(),
  ConflictError: (p) => new ConflictError(p.message, p.discordCode),
  PayloadTooLargeError: () => new PayloadTooLargeError(),
  RateLimitedError: (p) =>
    new RateLimitedError(p.retryAfterMs ?? 0, p.global ?? false, p.bucket ?? 'global', p.limit ?? 0),
  ActorOverloadedError: (p) => new ActorOverloadedError(p.message),
  ServiceUnavailableError: (p) => new ServiceUnavailableError(p.message),
  WrongOwnerError: (p) => new WrongOwnerError(p.message),
  InternalError: () => new InternalError(),
} satisfies Record<AppErrorName, (payload: AppErrorPayload) => AppError>;

/** The payload of an error: common fields plus whatever its class needs to be rebuilt. */
export function toPayload(err: AppError): AppErrorPayload {
  const base = { name: err.name, discordCode: err.discordCode, message: err.message };
  if (err instanceof ValidationError) return { ...base, fieldErrors: err.fieldErrors };
  if (err instanceof UnknownEntityError) return { ...base, entity: err.entity };
  if (err instanceof MissingPermissionsError) return { ...base, missing: err.missing };
  if (err instanceof RateLimitedError) {
    return { ...base, retryAfterMs: err.retryAfterMs, global: err.global, bucket: err.bucket, limit: err.limit };
  }
  return base;
}

/** Encodes anything thrown as the bytes that cross the wire (unknown values become InternalError). */
export function encodeAppError(thrown: unknown): Buffer {
  return Buffer.from(JSON.stringify(toPayload(toAppError(thrown))));
}

/** Rebuilds the AppError from bytes `encodeAppError` made; unreadable bytes become InternalError. */
export function decodeAppError(carried: Buffer | string): AppError {
  try {
    const text = typeof carried === 'string' ? carried : carried.toString('utf8');
    return fromPayload(JSON.parse(text) as AppErrorPayload);
  } catch (cause) {
    return new InternalError({ cause });
  }
}

/** Encodes anything thrown as a gRPC status (unknown values become InternalError). */
export function toStatus(thrown: unknown): StatusObject {
  const err = toAppError(thrown);
  const metadata = new Metadata();
  metadata.set(APP_ERROR_KEY, encodeAppError(err));
  return { code: GRPC_STATUS[err.kind], details: err.message, metadata };
}

/** Rebuilds an AppError from its payload; an unknown class name becomes InternalError. */
export function fromPayload(payload: AppErrorPayload): AppError {
  const restore: ((p: AppErrorPayload) => AppError) | undefined = Object.hasOwn(RESTORE, payload.name)
    ? RESTORE[payload.name as AppErrorName]
    : undefined;
  return restore ? restore(payload) : new InternalError({ cause: new Error(`${payload.name}: ${payload.message}`) });
}

// Statuses grpc-js raises itself when the peer is down, the connection drops or the deadline passes.
const TRANSPORT_FAILURES: ReadonlySet<number> = new Set([
  status.UNAVAILABLE,
  status.DEADLINE_EXCEEDED,
  status.CANCELLED,
]);

/**
 * Turns a failed call back into the AppError the remote side threw. Without an app payload, a
 * transport failure (peer down, connection lost, deadline) is ServiceUnavailableError; anything
 * else (UNIMPLEMENTED on version skew, an oversized message) is InternalError.
 */
export function fromServiceError(thrown: unknown, peer = 'peer'): AppError {
  if (thrown instanceof AppError) return thrown;
  const failure = thrown as Partial<StatusObject> | null | undefined;
  const carried = failure?.metadata instanceof Metadata ? failure.metadata.get(APP_ERROR_KEY)[0] : undefined;
  if (carried !== undefined) return decodeAppError(carried);
  const code = failure?.code;
  if (code !== undefined && TRANSPORT_FAILURES.has(code)) {
    return new ServiceUnavailableError(`${peer} unreachable: ${failure?.details ?? status[code]}`);
  }
  return new InternalError({ cause: thrown });
}
