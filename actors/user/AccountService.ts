import type { Clock } from '../../src/domain/Clock.js';
import { BadRequestError, ValidationError } from '../../src/domain/errors.js';
import { hashPassword, verifyPassword } from '../../src/domain/passwords.js';
import { Right } from '../../src/domain/rights.js';
import { signToken, ticketSecret, verifyToken } from '../../src/domain/tokens.js';
import type { UserRecord } from '../runtime/ports/records.js';
import type { Stores } from '../runtime/ports/stores.js';
import { createWithFreeTag, isEmailConflict, newUserRecord } from './accountRecords.js';
import { verifyTotp } from './totp.js';
import { checkUsername } from './usernames.js';
import { repairUserRecord } from './userRecordRepair.js';
import { settingsJson } from './userSettings.js';
import { issueToken, type UserActorOptions } from './userTurn.js';
import { bodyOf } from '../../src/contract/bodyOf.js';
import { LoginSchema, RegisterSchema, TotpSchema } from '../../src/contract/index.js';

/** AccountService options: the User actor's, plus emails that register with the OPERATOR right. */
export interface AccountServiceOptions extends UserActorOptions {
  /**
   * Lower-cased emails whose registration gets OPERATOR (every instance right). Empty by default: an
   * instance has no operator until configured, rather than handing it to whoever registers first.
   */
  readonly operatorEmails?: readonly string[];
}

/** An MFA login ticket is good for this long. */
const TICKET_TTL_MS = 5 * 60_000;

const invalidLogin = (): ValidationError =>
  new ValidationError({
    login: { _errors: [{ code: 'INVALID_LOGIN', message: 'Login or password is invalid.' }] },
    password: { _errors: [{ code: 'INVALID_LOGIN', message: 'Login or password is invalid.' }] },
  });

/**
 * Registration and login: the account operations that come before any User actor exists or is
 * known. Only reads the store, except `register`, which creates a record nobody else can hold yet
 * (its id is fresh), so the User actor stays the only writer of existing accounts.
 */
export class AccountService {
  constructor(
    private readonly stores: Stores,
    private readonly options: AccountServiceOptions,
    private readonly clock: Clock,
  ) {}

  /** Creates the account for a validated RegisterSchema body; resolves to `{"token": ...}`. */
  async register(userId: string, body: string): Promise<string> {
    const form = bodyOf(RegisterSchema, body);
    if (!form.consent) {
      throw ValidationError.field(
        'consent',
        'CONSENT_REQUIRED',
        'You need to agree to the Terms of Service and Privacy Policy to register.',
      );
    }
    const email = form.email?.trim().toLowerCase() ?? null;
    if (email !== null && (await this.stores.users.findByEmail(email))) throw emailTaken();
    const record = newUserRecord(userId, checkUsername(form.username, 'username'), this.clock.now());
    record.email = email;
    if (form.password !== undefined)
      record.password_hash = await hashPassword(form.password, this.options.passwordCost);
    if (email !== null && (this.options.operatorEmails ?? []).includes(email)) {
      record.rights = (BigInt(record.rights) | Right.OPERATOR).toString();
    }
    try {
      const created = await createWithFreeTag(this.stores.users, record);
      return JSON.stringify({ token: issueToken(this.options, created, this.clock.now()) });
    } catch (error) {
      if (isEmailConflict(error)) throw emailTaken();
      throw error;
    }
  }

  /**
   * Checks a LoginSchema body (`login` is an email or `username#1234`). Resolves to
   * `{token, user_id, user_settings}`, or to an MFA challenge `{mfa: true, ticket, ...}` when TOTP is on.
   */
  async login(body: string): Promise<string> {
    const form = bodyOf(LoginSchema, body);
    const user = await this.#findLogin(form.login);
    const hash = user?.password_hash && !user.bot && !user.deleted ? user.password_hash : undefined;
    // An unknown login costs the same scrypt run as a wrong password, so timing does not reveal accounts.
    const matches = await verifyPassword(form.password, hash ?? (await this.#decoyHash()));
    if (!user || hash === undefined || !matches) throw invalidLogin();
    if (user.disabled) throw new BadRequestError('This account is disabled.', 20_013);
    if (user.mfa_enabled && user.totp_secret) {
      return JSON.stringify({
        token: null,
        user_id: user.id,
        mfa: true,
        sms: false,
        totp: true,
        backup: false,
        webauthn: null,
        ticket: this.#ticket(user),
      });
    }
    return this.#loggedIn(user);
  }

  /** Second login step with a TOTP code (POST /auth/mfa/totp); 400 60008 when the code is wrong. */
  async loginTotp(body: string): Promise<string> {
    const form = bodyOf(TotpSchema, body);
    const claims = verifyToken(this.#ticketKey(), form.ticket);
    if (!claims || this.clock.now() - claims.issuedAtMs > TICKET_TTL_MS) {
      throw ValidationError.field('ticket', 'TICKET_INVALID', 'Invalid or expired login ticket.');
    }
    const user = await this.stores.users.get(claims.userId);
    if (!user?.totp_secret || user.token_generation !== claims.generation || user.disabled || user.deleted) {
      throw ValidationError.field('ticket', 'TICKET_INVALID', 'Invalid or expired login ticket.');
    }
    if (!verifyTotp(user.totp_secret, form.code, this.clock.now())) {
      throw new BadRequestError('Invalid two-factor code', 60_008);
    }
    return this.#loggedIn(user);
  }

  #decoy: Promise<string> | undefined;

  #decoyHash(): Promise<string> {
    this.#decoy ??= hashPassword('chorus-decoy-password', this.options.passwordCost);
    return this.#decoy;
  }

  async #findLogin(login: string): Promise<UserRecord | undefined> {
    const tag = /^(.+)#(\d{4})$/.exec(login.trim());
    if (tag) return this.stores.users.findByTag(tag[1] ?? '', tag[2] ?? '');
    return this.stores.users.findByEmail(login.trim().toLowerCase());
  }

  #loggedIn(user: UserRecord): string {
    // Read outside the User actor: repaired the same way, so bad stored settings cannot fail a login.
    const repaired = repairUserRecord(user);
    const settings = settingsJson(repaired.settings, repaired.locale);
    return JSON.stringify({
      token: issueToken(this.options, user, this.clock.now()),
      user_id: user.id,
      user_settings: { locale: settings['locale'], theme: settings['theme'] },
    });
  }

  /** Tickets are signed with a key derived from the token key, so a ticket is never a valid token. */
  #ticketKey(): string {
    return ticketSecret(this.options.tokenSecret);
  }

  #ticket(user: UserRecord): string {
    return signToken(this.#ticketKey(), {
      userId: user.id,
      generation: user.token_generation,
      issuedAtMs: this.clock.now(),
    });
  }
}

function emailTaken(): ValidationError {
  return ValidationError.field('email', 'EMAIL_ALREADY_REGISTERED', 'Email is already registered.');
}
