import { dictionary } from "@zxcvbn-ts/language-common";
import * as z from "zod/mini";
import { addIssue } from "./issues";

export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

// Deliberately loose: one @, something on each side, a dot in the domain, no spaces.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// Control characters (NUL, bell, ...) and invisible format characters (bidi overrides, zero widths) have no place in an address.
const INVISIBLE = /[\p{Cc}\p{Cf}]/u;

/** The 1,000 most common passwords (zxcvbn's frequency list), lower-cased. */
const COMMON_PASSWORDS = new Set(dictionary["passwords-common"]!.slice(0, 1000).map((word) => String(word).toLowerCase()));

const requiredEmail = z.string().check(z.trim(), z.toLowerCase(), z.minLength(1, "EMAIL_REQUIRED"));
export const requiredPassword = z.string().check(z.minLength(1, "PASSWORD_REQUIRED"));

/**
 * signUp's input, and the sign-up form's (checked by the settings page's action, with or
 * without JavaScript, before it asks the API). The email comes out normalised.
 */
/** An address someone means to use (signing up, moving the account to it): normalised, and plausibly an address. */
export const validEmail = requiredEmail.check(
  z.superRefine((email: string, context) => {
    if (email && (email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email) || INVISIBLE.test(email)))
      addIssue(context, null, "EMAIL_INVALID");
  }),
);

/**
 * Sign-up's rules for a new password (also a reset's), on `field`. One problem at a time, the one to
 * fix first. The address, or the part before its @, is the first thing anyone guesses.
 */
export function checkNewPassword(context: z.core.$RefinementCtx, password: string, email: string | null | undefined, field = "password") {
  if (!password) return;
  const lower = password.trim().toLowerCase();
  if (password.length < PASSWORD_MIN_LENGTH) addIssue(context, field, "PASSWORD_TOO_SHORT", { min: PASSWORD_MIN_LENGTH });
  else if (password.length > PASSWORD_MAX_LENGTH) addIssue(context, field, "PASSWORD_TOO_LONG", { max: PASSWORD_MAX_LENGTH });
  else if (lower.length === 0) addIssue(context, field, "PASSWORD_BLANK");
  else if (email && (lower === email || lower === email.slice(0, email.lastIndexOf("@")))) addIssue(context, field, "PASSWORD_LIKE_EMAIL");
  else if (COMMON_PASSWORDS.has(password.toLowerCase())) addIssue(context, field, "PASSWORD_TOO_COMMON");
}

export const signUpInput = z
  .object({
    email: validEmail,
    password: requiredPassword,
    language: z.nullish(z.string()),
    timeZone: z.nullish(z.string()),
    // The ISO 3166 country whose units the account starts with (GB, US, …).
    region: z.nullish(z.string().check(z.regex(/^[A-Z]{2}$/, "REGION_INVALID"))),
  })
  .check(z.superRefine(({ email, password }, context) => checkNewPassword(context, password, email)));

/**
 * logIn's input, and the log-in form's: both given, and the email plausibly an address (no account has any other:
 * "not-an-email" is a typing slip to point at, not wrong credentials, issue 35); whether they are right is the API's to say.
 */
export const logInInput = z.object({ email: validEmail, password: requiredPassword });

/**
 * changePassword's input, and the change-password form's: the current password given, the new one by sign-up's rules
 * (`email`, the account's, is not asked for: the API and the form know it). Whether the current one is right is the
 * API's to say.
 */
export const changePasswordInput = z
  .object({ email: z.string(), currentPassword: requiredPassword, newPassword: requiredPassword })
  .check(z.superRefine(({ email, newPassword }, context) => checkNewPassword(context, newPassword, email, "newPassword")));

/** deleteAccount's input, and the delete-account form's: the password, given. */
export const deleteAccountInput = z.object({ password: requiredPassword });

export type SignUpInput = z.input<typeof signUpInput>;
export type LogInInput = z.input<typeof logInInput>;
