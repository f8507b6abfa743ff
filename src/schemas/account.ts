import { bool, nullable, obj, snowflake, str } from './builders.js';

/** POST /auth/login body. */
export const LoginSchema = obj(
  {
    login: str(),
    password: str(),
    undelete: bool(),
    captcha_key: str(),
    login_source: str(),
    gift_code_sku_id: str(),
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
    password: str({ minLength: 1, maxLength: 72 }),
    email: str({ format: 'email' }),
    fingerprint: str(),
    invite: str(),
    date_of_birth: str(),
    gift_code_sku_id: str(),
    captcha_key: str(),
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
  { code: str(), ticket: str(), gift_code_sku_id: nullable(str()), login_source: nullable(str()) },
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
export const BackupCodesChallengeSchema = obj({ password: str() }, ['password']);
/** Validated BackupCodesChallengeSchema body. */
export interface BackupCodesChallengeBody {
  password: string;
}

/** Request a password-reset mail. */
export const ForgotPasswordSchema = obj({ login: str(), captcha_key: str() }, ['login']);
/** Validated ForgotPasswordSchema body. */
export interface ForgotPasswordBody {
  login: string;
  captcha_key?: string;
}

/** Set a new password with a reset token. */
export const PasswordResetSchema = obj({ password: str(), token: str() }, ['password', 'token']);
/** Validated PasswordResetSchema body. */
export interface PasswordResetBody {
  password: string;
  token: string;
}

/** Confirm an email address with its token. */
export const VerifyEmailSchema = obj({ token: str(), captcha_key: nullable(str()) }, ['token']);
/** Validated VerifyEmailSchema body. */
export interface VerifyEmailBody {
  token: string;
  captcha_key?: string | null;
}

/** Turn on TOTP multi-factor authentication. */
export const TotpEnableSchema = obj({ password: str(), code: str(), secret: str() }, ['password']);
/** Validated TotpEnableSchema body. */
export interface TotpEnableBody {
  password: string;
  code?: string;
  secret?: string;
}

/** Turn off TOTP multi-factor authentication. */
export const TotpDisableSchema = obj({ code: str() }, ['code']);
/** Validated TotpDisableSchema body. */
export interface TotpDisableBody {
  code: string;
}

/** List (or regenerate) MFA backup codes. */
export const MfaCodesSchema = obj({ password: str(), regenerate: bool() }, ['password']);
/** Validated MfaCodesSchema body. */
export interface MfaCodesBody {
  password: string;
  regenerate?: boolean;
}

/** Verify a backup-code listing with an emailed key. */
export const CodesVerificationSchema = obj({ key: str(), nonce: str(), regenerate: bool() }, ['key', 'nonce']);
/** Validated CodesVerificationSchema body. */
export interface CodesVerificationBody {
  key: string;
  nonce: string;
  regenerate?: boolean;
}

/** First WebAuthn step: ask for a registration challenge. */
export const GenerateWebAuthnCredentialsSchema = obj({ password: str() }, ['password']);
/** Validated GenerateWebAuthnCredentialsSchema body. */
export interface GenerateWebAuthnCredentialsBody {
  password: string;
}

/** Second WebAuthn step: register the created credential. */
export const CreateWebAuthnCredentialSchema = obj({ credential: str(), name: str(), ticket: str() }, [
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
export const WebAuthnPostSchema = obj({ password: str(), credential: str(), name: str(), ticket: str() });
/** Validated WebAuthnPostSchema body. */
export interface WebAuthnPostBody {
  password?: string;
  credential?: string;
  name?: string;
  ticket?: string;
}

/** Second step of a login with a WebAuthn assertion. */
export const WebAuthnTotpSchema = obj({ code: str(), ticket: str() }, ['code', 'ticket']);
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
