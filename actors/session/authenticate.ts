import type { Caller } from '../../proto/gen/chorus/v1/common.js';
import type { AuthenticateReply } from '../../proto/gen/chorus/v1/user.js';
import { ServiceUnavailableError, UnauthorizedError, toAppError } from '../../src/domain/errors.js';
import { verifyToken } from '../../src/domain/tokens.js';
import type { ActorContext } from '../runtime/ActorContext.js';

/** An authenticated token's owner, as the User actor describes it. */
export type Authenticated = AuthenticateReply & { readonly caller: Caller };

/**
 * Checks a gateway token: its signature here, then its generation and account with the User actor.
 * Any refusal is UnauthorizedError (the edge closes 4004); an unreachable User actor rethrows as is.
 */
export async function authenticate(ctx: ActorContext, tokenSecret: string, token: string): Promise<Authenticated> {
  const claims = verifyToken(tokenSecret, token);
  if (!claims) throw new UnauthorizedError('Authentication failed.');
  let reply;
  try {
    reply = await ctx.ask('user', claims.userId, { command: { $case: 'authenticate', authenticate: { token } } });
  } catch (error) {
    const kind = toAppError(error).kind;
    if (kind === 'invalid' || kind === 'not_found' || kind === 'forbidden') throw new UnauthorizedError();
    throw error;
  }
  const auth = reply.reply?.$case === 'authenticated' ? reply.reply.authenticated : undefined;
  if (!auth?.caller) throw new UnauthorizedError();
  return { ...auth, caller: auth.caller };
}

/** Attempts of a Resume's token check while the User actor cannot be reached (a node died, a lease moves). */
const RESUME_AUTH_ATTEMPTS = 3;
/** Pause before the next attempt: long enough for the view to drop a dead node, short inside one turn. */
const RESUME_AUTH_RETRY_MS = 400;

/**
 * The token check of a Resume. Undefined when the token is refused (revoked, another account): the
 * session is unknown to this caller (op 9). A passing fault (the User actor's node is unreachable or
 * its actor is moving) is not an answer about the session: it is retried a few times, then thrown as
 * ServiceUnavailableError so the edge sends op 7 and the client resumes again. A live session is never
 * ended because its user could not be asked for a moment.
 */
export async function authenticateResume(
  ctx: ActorContext,
  tokenSecret: string,
  token: string,
): Promise<Authenticated | undefined> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await authenticate(ctx, tokenSecret, token);
    } catch (error) {
      const appError = toAppError(error);
      if (appError.kind === 'unauthenticated') return undefined;
      if (attempt >= RESUME_AUTH_ATTEMPTS) {
        throw new ServiceUnavailableError(`Session not resumable now: ${appError.message}`);
      }
      ctx.log.warn('resume_auth_retry', { attempt, err: appError.message });
      await new Promise((resolve) => setTimeout(resolve, RESUME_AUTH_RETRY_MS * attempt));
    }
  }
}
