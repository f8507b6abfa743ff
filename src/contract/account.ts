import { Type, type Static } from '@sinclair/typebox';
import {
  CAPTCHA_MAX_LENGTH,
  EMAIL_MAX_LENGTH,
  MFA_CODE_MAX_LENGTH,
  NAME_MAX_LENGTH,
  OPAQUE_MAX_LENGTH,
  PASSWORD_CHECK_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
} from './discordLimits.js';
import { closedObject, nullable, snowflake } from './wireTypes.js';

/** Strings the server only reads or compares: bounded, never stored as given. */
const opaque = () => Type.String({ maxLength: OPAQUE_MAX_LENGTH });
const captcha = () => Type.String({ maxLength: CAPTCHA_MAX_LENGTH });
const checkedPassword = () => Type.String({ maxLength: PASSWORD_CHECK_MAX_LENGTH });
const mfaCode = () => Type.String({ maxLength: MFA_CODE_MAX_LENGTH });
/** A login is an email address or a "name#0000" tag. */
const login = () => Type.String({ maxLength: EMAIL_MAX_LENGTH });

/** POST /auth/login body. */
export const LoginSchema = closedObject({
  login: login(),
  password: checkedPassword(),
  undelete: Type.Optional(Type.Boolean()),
  captcha_key: Type.Optional(captcha()),
  login_source: Type.Optional(opaque()),
  gift_code_sku_id: Type.Optional(opaque()),
});
/** Validated LoginSchema body. */
export type LoginBody = Static<typeof LoginSchema>;

/** POST /auth/register body (username 2..32, password 1..72, email format). */
export const RegisterSchema = closedObject({
  consent: Type.Boolean(),
  username: Type.String({ minLength: 2, maxLength: 32 }),
  password: Type.Optional(Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH })),
  email: Type.Optional(Type.String({ format: 'email', maxLength: EMAIL_MAX_LENGTH })),
  fingerprint: Type.Optional(opaque()),
  invite: Type.Optional(opaque()),
  date_of_birth: Type.Optional(opaque()),
  gift_code_sku_id: Type.Optional(opaque()),
  captcha_key: Type.Optional(captcha()),
  promotional_email_opt_in: Type.Optional(Type.Boolean()),
});
/** Validated RegisterSchema body. */
export type RegisterBody = Static<typeof RegisterSchema>;

/** Second step of a login with TOTP. */
export const TotpSchema = closedObject({
  code: mfaCode(),
  ticket: opaque(),
  gift_code_sku_id: Type.Optional(nullable(opaque())),
  login_source: Type.Optional(nullable(opaque())),
});
/** Validated TotpSchema body. */
export type TotpBody = Static<typeof TotpSchema>;

/** Password challenge before listing backup codes. */
export const BackupCodesChallengeSchema = closedObject({ password: checkedPassword() });
/** Validated BackupCodesChallengeSchema body. */
export type BackupCodesChallengeBody = Static<typeof BackupCodesChallengeSchema>;

/** Request a password-reset mail. */
export const ForgotPasswordSchema = closedObject({ login: login(), captcha_key: Type.Optional(captcha()) });
/** Validated ForgotPasswordSchema body. */
export type ForgotPasswordBody = Static<typeof ForgotPasswordSchema>;

/** Set a new password with a reset token. */
export const PasswordResetSchema = closedObject({
  password: Type.String({ maxLength: PASSWORD_MAX_LENGTH }),
  token: opaque(),
});
/** Validated PasswordResetSchema body. */
export type PasswordResetBody = Static<typeof PasswordResetSchema>;

/** Confirm an email address with its token. */
export const VerifyEmailSchema = closedObject({ token: opaque(), captcha_key: Type.Optional(nullable(captcha())) });
/** Validated VerifyEmailSchema body. */
export type VerifyEmailBody = Static<typeof VerifyEmailSchema>;

/** Turn on TOTP multi-factor authentication. */
// The secret (base32, 80 bits and up) is stored while MFA is on: 128 characters is 640 bits.
export const TotpEnableSchema = closedObject({
  password: checkedPassword(),
  code: Type.Optional(mfaCode()),
  secret: Type.Optional(Type.String({ maxLength: 128 })),
});
/** Validated TotpEnableSchema body. */
export type TotpEnableBody = Static<typeof TotpEnableSchema>;

/** Turn off TOTP multi-factor authentication. */
export const TotpDisableSchema = closedObject({ code: mfaCode() });
/** Validated TotpDisableSchema body. */
export type TotpDisableBody = Static<typeof TotpDisableSchema>;

/** List (or regenerate) MFA backup codes. */
export const MfaCodesSchema = closedObject({ password: checkedPassword(), regenerate: Type.Optional(Type.Boolean()) });
/** Validated MfaCodesSchema body. */
export type MfaCodesBody = Static<typeof MfaCodesSchema>;

/** Verify a backup-code listing with an emailed key. */
export const CodesVerificationSchema = closedObject({
  key: opaque(),
  nonce: opaque(),
  regenerate: Type.Optional(Type.Boolean()),
});
/** Validated CodesVerificationSchema body. */
export type CodesVerificationBody = Static<typeof CodesVerificationSchema>;

/** First WebAuthn step: ask for a registration challenge. */
export const GenerateWebAuthnCredentialsSchema = closedObject({ password: checkedPassword() });
/** Validated GenerateWebAuthnCredentialsSchema body. */
export type GenerateWebAuthnCredentialsBody = Static<typeof GenerateWebAuthnCredentialsSchema>;

// A credential is the JSON of a WebAuthn attestation: a few kilobytes at most.
const credential = () => Type.String({ maxLength: 16_384 });
const keyName = () => Type.String({ maxLength: NAME_MAX_LENGTH });

/** Second WebAuthn step: register the created credential. */
export const CreateWebAuthnCredentialSchema = closedObject({
  credential: credential(),
  name: keyName(),
  ticket: opaque(),
});
/** Validated CreateWebAuthnCredentialSchema body. */
export type CreateWebAuthnCredentialBody = Static<typeof CreateWebAuthnCredentialSchema>;

/** Either WebAuthn step on one route: the fields of both, all optional. */
export const WebAuthnPostSchema = closedObject({
  password: Type.Optional(checkedPassword()),
  credential: Type.Optional(credential()),
  name: Type.Optional(keyName()),
  ticket: Type.Optional(opaque()),
});
/** Validated WebAuthnPostSchema body. */
export type WebAuthnPostBody = Static<typeof WebAuthnPostSchema>;

/** Second step of a login with a WebAuthn assertion. */
export const WebAuthnTotpSchema = closedObject({ code: opaque(), ticket: opaque() });
/** Validated WebAuthnTotpSchema body. */
export type WebAuthnTotpBody = Static<typeof WebAuthnTotpSchema>;

/** Operator deletes a user account. */
export const UserDeleteSchema = closedObject({ user_id: snowflake() });
/** Validated UserDeleteSchema body. */
export type UserDeleteBody = Static<typeof UserDeleteSchema>;
