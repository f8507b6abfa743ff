import type { UserBodyRequest, UserReply } from '../../proto/gen/chorus/v1/user.js';
import { BadRequestError, ForbiddenError, ValidationError } from '../../src/domain/errors.js';
import type { UserRecord } from '../runtime/ports/records.js';
import { base32Decode, generateBackupCodes, verifyTotp } from './totp.js';
import { privateUser } from './userJson.js';
import { issueToken, jsonReply, nextRecord, requirePassword, requireSelf, type UserTurn } from './userTurn.js';
import { bodyOf } from '../../src/contract/bodyOf.js';
import { MfaCodesSchema, TotpDisableSchema, TotpEnableSchema } from '../../src/contract/index.js';

const invalidCode = (): BadRequestError => new BadRequestError('Invalid two-factor code', 60_008);

function backupCodesJson(user: UserRecord): { user_id: string; code: string; consumed: boolean }[] {
  return (user.backup_codes ?? []).map((entry) => ({ user_id: user.id, ...entry }));
}

function requireHuman(turn: UserTurn, request: UserBodyRequest): void {
  if (requireSelf(turn, request).bot) throw new ForbiddenError('Bots cannot use this endpoint', 20_001);
}

/**
 * POST /users/@me/mfa/totp/enable: the client made `secret` (base32) and shows it as a QR code; the
 * user proves it with `code`. Turns TOTP on, issues backup codes, and revokes older tokens.
 */
export async function enableTotp(turn: UserTurn, request: UserBodyRequest): Promise<UserReply> {
  requireHuman(turn, request);
  const form = bodyOf(TotpEnableSchema, request.body);
  await requirePassword(turn.user, form.password);
  if (turn.user.mfa_enabled) throw new BadRequestError('Two factor is already enabled for this account', 60_001);
  const secret = form.secret?.replace(/\s/g, '').toUpperCase();
  const key = secret === undefined ? undefined : base32Decode(secret);
  if (secret === undefined || !key || key.length < 10) {
    throw ValidationError.field('secret', 'TOTP_SECRET_INVALID', 'A base32 secret of at least 80 bits is required.');
  }
  if (form.code === undefined) throw ValidationError.field('code', 'BASE_TYPE_REQUIRED', 'This field is required');
  if (!verifyTotp(secret, form.code, turn.ctx.clock.now())) throw invalidCode();
  const next = nextRecord(turn.user);
  next.mfa_enabled = true;
  next.totp_secret = secret;
  next.backup_codes = generateBackupCodes();
  next.token_generation += 1;
  next.revoked_tokens = [];
  await turn.commit(next);
  turn.dispatch('USER_UPDATE', privateUser(next));
  return jsonReply({
    token: issueToken(turn.options, next, turn.ctx.clock.now()),
    backup_codes: backupCodesJson(next),
  });
}

/** POST /users/@me/mfa/totp/disable: `code` is a current TOTP code or an unused backup code. */
export async function disableTotp(turn: UserTurn, request: UserBodyRequest): Promise<UserReply> {
  requireHuman(turn, request);
  const form = bodyOf(TotpDisableSchema, request.body);
  const user = turn.user;
  if (!user.mfa_enabled || !user.totp_secret)
    throw new BadRequestError('Two factor is disabled for this account', 60_002);
  const next = nextRecord(user);
  const backup = next.backup_codes?.find((entry) => !entry.consumed && entry.code === form.code.replace(/[\s-]/g, ''));
  if (!backup && !verifyTotp(user.totp_secret, form.code, turn.ctx.clock.now())) throw invalidCode();
  next.mfa_enabled = false;
  next.totp_secret = null;
  next.backup_codes = [];
  next.token_generation += 1;
  next.revoked_tokens = [];
  await turn.commit(next);
  turn.dispatch('USER_UPDATE', privateUser(next));
  return jsonReply({ token: issueToken(turn.options, next, turn.ctx.clock.now()) });
}

/** POST /users/@me/mfa/codes: the backup codes (new ones when `regenerate`), behind the password. */
export async function getBackupCodes(turn: UserTurn, request: UserBodyRequest): Promise<UserReply> {
  requireHuman(turn, request);
  const form = bodyOf(MfaCodesSchema, request.body);
  await requirePassword(turn.user, form.password);
  if (!turn.user.mfa_enabled) throw new BadRequestError('Two factor is disabled for this account', 60_002);
  if (!form.regenerate) return jsonReply({ backup_codes: backupCodesJson(turn.user) });
  const next = nextRecord(turn.user);
  next.backup_codes = generateBackupCodes();
  await turn.commit(next);
  return jsonReply({ backup_codes: backupCodesJson(next) });
}
