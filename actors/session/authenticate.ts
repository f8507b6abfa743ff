import type { Caller } from '../../proto/gen/chorus/v1/common.js';
import type { AuthenticateReply } from '../../proto/gen/chorus/v1/user.js';
import { UnauthorizedError, toAppError } from '../../src/domain/errors.js';
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
