import assert from 'node:assert/strict';
import { Metadata, status, type ServiceError, type StatusObject } from '@grpc/grpc-js';
import { APP_ERROR_KEY, fromServiceError, GRPC_STATUS, toStatus } from '../../../../cluster/transport/errorCodec.js';
import * as errors from '../../../../src/domain/errors.js';

type Sample = () => errors.AppError;

// One sample per concrete AppError class; a class added to errors.ts without one fails the first test.
const SAMPLES: Record<string, Sample> = {
  ValidationError: () => errors.ValidationError.field('embeds.0.title', 'BASE_TYPE_MAX_LENGTH', 'Too long'),
  BadRequestError: () => new errors.BadRequestError('Cannot send an empty message', 50_006),
  UnauthorizedError: () => new errors.UnauthorizedError('401: Unauthorized', 40_001),
  MissingAccessError: () => new errors.MissingAccessError(),
  MissingPermissionsError: () => new errors.MissingPermissionsError('MANAGE_ROLES'),
  ForbiddenError: () => new errors.ForbiddenError('Cannot edit a message authored by another user', 50_005),
  UnknownEntityError: () => new errors.UnknownEntityError('member'),
  RouteNotFoundError: () => new errors.RouteNotFoundError(),
  ConflictError: () => new errors.ConflictError('Username taken', 0),
  PayloadTooLargeError: () => new errors.PayloadTooLargeError(),
  RateLimitedError: () => new errors.RateLimitedError(1_250, true, 'channel:1', 5),
  ActorOverloadedError: () => new errors.ActorOverloadedError('Mailbox of channel:1 is full'),
  ServiceUnavailableError: () => new errors.ServiceUnavailableError('Storage is down'),
  WrongOwnerError: () => new errors.WrongOwnerError('guild:1 is owned by b'),
  InternalError: () => new errors.InternalError(),
};

/** Every concrete AppError subclass errors.ts exports. */
const CLASSES = Object.entries(errors as Record<string, unknown>).filter(
  ([, value]) => typeof value === 'function' && (value as { prototype: unknown }).prototype instanceof errors.AppError,
);

/** What a client sees: grpc-js turns the server's status into an Error with code, details, metadata. */
function asServiceError(sent: StatusObject): ServiceError {
  // Metadata crosses the wire, so the receiver gets its own copy.
  return Object.assign(new Error(`${sent.code} ${sent.details}`), {
    code: sent.code,
    details: sent.details,
    metadata: sent.metadata.clone(),
  });
}

/** The own enumerable fields of an error (entity, fieldErrors, retryAfterMs, ...). */
function fieldsOf(error: errors.AppError): Record<string, unknown> {
  return { ...Object.fromEntries(Object.entries(error)), message: error.message, name: error.name };
}

describe('errorCodec', () => {
  it('has a sample for every AppError class in errors.ts', () => {
    assert.ok(CLASSES.length >= 15, `found only ${CLASSES.length} classes`);
    const missing = CLASSES.map(([name]) => name).filter((name) => !(name in SAMPLES));
    assert.deepEqual(missing, [], `add a sample (and a restorer in errorCodec.ts) for: ${missing.join(', ')}`);
  });

  for (const [name, sample] of Object.entries(SAMPLES)) {
    it(`rebuilds ${name} with the same class and fields`, () => {
      const original = sample();
      const restored = fromServiceError(asServiceError(toStatus(original)));
      assert.equal(restored.constructor, original.constructor);
      assert.ok(restored instanceof errors.AppError);
      assert.equal(restored.kind, original.kind);
      assert.equal(restored.discordCode, original.discordCode);
      assert.equal(restored.httpStatus, original.httpStatus);
      assert.deepEqual(fieldsOf(restored), fieldsOf(original));
      assert.deepEqual(restored.toDiscordJson(), original.toDiscordJson());
    });
  }

  it('sends the status of the kind and the payload in trailing metadata', () => {
    const sent = toStatus(errors.ValidationError.field('content', 'BASE_TYPE_REQUIRED', 'Required'));
    assert.equal(sent.code, status.INVALID_ARGUMENT);
    const payload = JSON.parse(String(sent.metadata.get(APP_ERROR_KEY)[0])) as Record<string, unknown>;
    assert.equal(payload['name'], 'ValidationError');
    assert.equal(payload['discordCode'], 50_035);
    assert.deepEqual(payload['fieldErrors'], {
      content: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'Required' }] },
    });
  });

  it('maps each kind to the status of the S3 table', () => {
    assert.deepEqual(GRPC_STATUS, {
      invalid: status.INVALID_ARGUMENT,
      unauthenticated: status.UNAUTHENTICATED,
      forbidden: status.PERMISSION_DENIED,
      not_found: status.NOT_FOUND,
      conflict: status.ALREADY_EXISTS,
      too_large: status.RESOURCE_EXHAUSTED,
      rate_limited: status.RESOURCE_EXHAUSTED,
      overloaded: status.RESOURCE_EXHAUSTED,
      unavailable: status.UNAVAILABLE,
      moved: status.FAILED_PRECONDITION,
      internal: status.INTERNAL,
    });
  });

  it('encodes a non-AppError as INTERNAL without its message', () => {
    const sent = toStatus(new TypeError('secret detail'));
    assert.equal(sent.code, status.INTERNAL);
    assert.equal(sent.details, '500: Internal Server Error');
    assert.ok(fromServiceError(asServiceError(sent)) instanceof errors.InternalError);
  });

  for (const code of [status.UNAVAILABLE, status.DEADLINE_EXCEEDED, status.CANCELLED]) {
    it(`turns a transport failure (${status[code]}) into ServiceUnavailableError`, () => {
      const failure = asServiceError({ code, details: 'No connection established', metadata: new Metadata() });
      const restored = fromServiceError(failure, '10.0.0.2:7000@1');
      assert.ok(restored instanceof errors.ServiceUnavailableError);
      assert.match(restored.message, /10\.0\.0\.2:7000@1/);
    });
  }

  it('turns any other status without a payload into InternalError', () => {
    const failure = asServiceError({ code: status.UNIMPLEMENTED, details: 'no such method', metadata: new Metadata() });
    assert.ok(fromServiceError(failure) instanceof errors.InternalError);
  });

  it('turns an unknown class name or a corrupt payload into InternalError', () => {
    const unknown = new Metadata();
    unknown.set(APP_ERROR_KEY, Buffer.from(JSON.stringify({ name: 'NewError', discordCode: 1, message: 'x' })));
    assert.ok(
      fromServiceError(asServiceError({ code: status.INTERNAL, details: 'x', metadata: unknown })) instanceof
        errors.InternalError,
    );
    const corrupt = new Metadata();
    corrupt.set(APP_ERROR_KEY, Buffer.from('{not json'));
    assert.ok(
      fromServiceError(asServiceError({ code: status.INTERNAL, details: 'x', metadata: corrupt })) instanceof
        errors.InternalError,
    );
  });
});
