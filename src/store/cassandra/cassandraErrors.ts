import cassandra from 'cassandra-driver';

import { AppError, InternalError, ServiceUnavailableError } from '../../domain/errors.js';

const { errors, types } = cassandra;
const codes = types.responseErrorCodes;

/**
 * Server answers meaning "the cluster cannot serve this now": too few live replicas for the consistency
 * level, a replica timed out or failed, the coordinator is overloaded or still bootstrapping. A retry
 * later (or on another node) can succeed, so the edge answers 503.
 */
const UNAVAILABLE_CODES: ReadonlySet<number> = new Set([
  codes.unavailableException,
  codes.overloaded,
  codes.isBootstrapping,
  codes.truncateError,
  codes.writeTimeout,
  codes.readTimeout,
  codes.readFailure,
  codes.writeFailure,
]);

/**
 * Converts whatever a driver call threw into the AppError the storage ports promise: no host reachable,
 * client-side timeouts, saturated connections, replica unavailability/timeouts and dropped sockets become
 * ServiceUnavailableError (with the driver error as `cause`); anything else (a malformed statement, a
 * type mismatch) is a bug and becomes InternalError. A raw driver error never leaves the store.
 */
export function toStoreError(thrown: unknown): AppError {
  if (thrown instanceof AppError) return thrown;
  if (isUnavailable(thrown)) {
    const error = new ServiceUnavailableError('Storage unavailable, try again');
    error.cause = thrown;
    return error;
  }
  return new InternalError({ cause: thrown });
}

function isUnavailable(thrown: unknown): boolean {
  if (
    thrown instanceof errors.NoHostAvailableError ||
    thrown instanceof errors.OperationTimedOutError ||
    thrown instanceof errors.BusyConnectionError
  ) {
    return true;
  }
  if (thrown instanceof errors.ResponseError) return UNAVAILABLE_CODES.has(thrown.code);
  // Connection-level failures surface as the bare DriverError ("being shutdown") or socket errors.
  if (thrown instanceof Error && thrown.constructor === errors.DriverError) return true;
  return thrown instanceof Error && (thrown as { isSocketError?: unknown }).isSocketError === true;
}
