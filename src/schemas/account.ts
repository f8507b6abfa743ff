import { bool, nullable, obj, snowflake, str } from './builders.js';
import {
  CAPTCHA_MAX_LENGTH,
  EMAIL_MAX_LENGTH,
  MFA_CODE_MAX_LENGTH,
  NAME_MAX_LENGTH,
  OPAQUE_MAX_LENGTH,
  PASSWORD_CHECK_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
} from './discordLimits.js';

/** Strings the server only reads or compares: bounded, never stored as given. */
const opaque = () => str({ maxLength: OPAQUE_MAX_LENGTH });
const captcha = () => str({ maxLength: CAPTCHA_MAX_LENGTH });
const checkedPassword = () => str({ maxLength: PASSWORD_CHECK_MAX_LENGTH });
const mfaCode = () => str({ maxLength: MFA_CODE_MAX_LENGTH });
/** A login is an email address or a "name#0000" tag. */
const login = () => str({ maxLength: EMAIL_MAX_LENGTH });

/** POST /auth/login body. */
export const LoginSchema = obj(
  {
    login: login(),
    password: checkedPassword(),
    undelete: bool(),
    captcha_key: captcha(),
    login_source: opaque(),
    gift_code_sku_id: opaque(),
  },
  ['login', 'password'],
);
/** Validated LoginSchema body. */
export interface LoginBody {
  login: string;
  password: string;
  undelete?: boolean;
  captcha_key?: string;
  login_source?: string;
  gift_code_sku_id?: string;
}

/** POST /auth/register body (username 2..32, password 1..72, email format). */
export const RegisterSchema = obj(
  {
    consent: bool(),
    username: str({ minLength: 2, maxLength: 32 }),
    password: str({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
    email: str({ format: 'email', maxLength: EMAIL_MAX_LENGTH }),
    fingerprint: opaque(),
    invite: opaque(),
    date_of_birth: opaque(),
    gift_code_sku_id: opaque(),
    captcha_key: captcha(),
    promotional_email_opt_in: bool(),
  },
  ['consent', 'username'],
);
/** Validated RegisterSchema body. */
export interface RegisterBody {
  consent: boolean;
  username: string;
  password?: string;
  email?: string;
  fingerprint?: string;
  invite?: string;
  date_of_birth?: string;
  gift_code_sku_id?: string;
  captcha_key?: string;
  promotional_email_opt_in?: boolean;
}

/** Second step of a login with TOTP. */
export const TotpSchema = obj(
  { code: mfaCode(), ticket: opaque(), gift_code_sku_id: nullable(opaque()), login_source: nullable(opaque()) },
  ['code', 'ticket'],
);
/** Validated TotpSchema body. */
export interface TotpBody {
  code: string;
  ticket: string;
  gift_code_sku_id?: string | null;
  login_source?: string | null;
}

/** Password challenge before listing backup codes. */
export const BackupCodesChallengeSchema = obj({ password: checkedPassword() }, ['password']);
/** Validated BackupCodesChallengeSchema body. */
export interface BackupCodesChallengeBody {
  password: string;
}

/** Request a password-reset mail. */
export const ForgotPasswordSchema = obj({ login: login(), captcha_key: captcha() }, ['login']);
/** Validated ForgotPasswordSchema body. */
export interface ForgotPasswordBody {
  login: string;
  captcha_key?: string;
}

/** Set a new password with a reset token. */
export const PasswordResetSchema = obj({ password: str({ maxLength: PASSWORD_MAX_LENGTH }), token: opaque() }, [
  'password',
  'token',
]);
/** Validated PasswordResetSchema body. */
export interface PasswordResetBody {
  password: string;
  token: string;
}

/** Confirm an email address with its token. */
export const VerifyEmailSchema = obj({ token: opaque(), captcha_key: nullable(captcha()) }, ['token']);
/** Validated VerifyEmailSchema body. */
export interface VerifyEmailBody {
  token: string;
  captcha_key?: string | null;
}

/** Turn on TOTP multi-factor authentication. */
// The secret (base32, 80 bits and up) is stored while MFA is on: 128 characters is 640 bits.
export const TotpEnableSchema = obj({ password: checkedPassword(), code: mfaCode(), secret: str({ maxLength: 128 }) }, [
  'password',
]);
/** Validated TotpEnableSchema body. */
export interface TotpEnableBody {
  password: string;
  code?: string;
  secret?: string;
}

/** Turn off TOTP multi-factor authentication. */
export const TotpDisableSchema = obj({ code: mfaCode() }, ['code']);
/** Validated TotpDisableSchema body. */
export interface TotpDisableBody {
  code: string;
}

/** List (or regenerate) MFA backup codes. */
export const MfaCodesSchema = obj({ password: checkedPassword(), regenerate: bool() }, ['password']);
/** Validated MfaCodesSchema body. */
export interface MfaCodesBody {
  password: string;
  regenerate?: boolean;
}

/** Verify a backup-code listing with an emailed key. */
export const CodesVerificationSchema = obj({ key: opaque(), nonce: opaque(), regenerate: bool() }, ['key', 'nonce']);
/** Validated CodesVerificationSchema body. */
export interface CodesVerificationBody {
  key: string;
  nonce: string;
  regenerate?: boolean;
}

/** First WebAuthn step: ask for a registration challenge. */
export const GenerateWebAuthnCredentialsSchema = obj({ password: checkedPassword() }, ['password']);
/** Validated GenerateWebAuthnCredentialsSchema body. */
export interface GenerateWebAuthnCredentialsBody {
  password: string;
}

// A credential is the JSON of a WebAuthn attestation: a few kilobytes at most.
const credential = () => str({ maxLength: 16_384 });
const keyName = () => str({ maxLength: NAME_MAX_LENGTH });

/** Second WebAuthn step: register the created credential. */
export const CreateWebAuthnCredentialSchema = obj({ credential: credential(), name: keyName(), ticket: opaque() }, [
  'credential',
  'name',
  'ticket',
]);
/** Validated CreateWebAuthnCredentialSchema body. */
export interface CreateWebAuthnCredentialBody {
  credential: string;
  name: string;
  ticket: string;
}

/** Either WebAuthn step on one route: the fields of both, all optional. */
export const WebAuthnPostSchema = obj({
  password: checkedPassword(),
  credential: credential(),
  name: keyName(),
  ticket: opaque(),
});
/** Validated WebAuthnPostSchema body. */
export interface WebAuthnPostBody {
  password?: string;
  credential?: string;
  name?: string;
  ticket?: string;
}

/** Second step of a login with a WebAuthn assertion. */
export const WebAuthnTotpSchema = obj({ code: opaque(), ticket: opaque() }, ['code', 'ticket']);
/** Validated WebAuthnTotpSchema body. */
export interface WebAuthnTotpBody {
  code: string;
  ticket: string;
}

/** Operator deletes a user account. */
export const UserDeleteSchema = obj({ user_id: snowflake() }, ['user_id']);
/** Validated UserDeleteSchema body. */
export interface UserDeleteBody {
  user_id: string;
}
