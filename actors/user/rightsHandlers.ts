import type { SetRights, UserReply } from '../../proto/gen/chorus/v1/user.js';
import { ValidationError } from '../../src/domain/errors.js';
import { rightNames } from '../../src/domain/rights.js';
import { nextRecord, jsonReply, type UserTurn } from './userTurn.js';

/** A decimal rights mask as the edge sends it ('' is none). */
function maskOf(text: string, field: string): bigint {
  if (text === '') return 0n;
  if (!/^\d{1,20}$/.test(text)) throw ValidationError.field(field, 'NUMBER_TYPE_COERCE', 'Not a rights mask.');
  return BigInt(text);
}

/**
 * The operator route's rights change (the edge checked OPERATOR or the admin token): adds `grant`, then
 * removes `revoke`, through the actor's own commit, so the record it serves tokens from, the store and the
 * next authentication all carry the new mask at once (an unchanged mask writes nothing). Answers the mask.
 */
export async function setRights(turn: UserTurn, request: SetRights): Promise<UserReply> {
  const before = BigInt(turn.user.rights || '0');
  const after = (before | maskOf(request.grant, 'grant')) & ~maskOf(request.revoke, 'revoke');
  if (after !== before) {
    const next = nextRecord(turn.user);
    next.rights = after.toString();
    await turn.commit(next);
  }
  return jsonReply({ id: turn.user.id, rights: after.toString(), names: rightNames(after) });
}
