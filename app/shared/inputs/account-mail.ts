import * as z from "zod/mini";
import { checkNewPassword, requiredPassword, validEmail } from "./account";

/**
 * What the account's mail links take: asking for a reset link, choosing the new password it
 * leads to (sign-up's rules, the account's own address included once the API knows it), and
 * the address an email change moves the account to.
 */
export const passwordResetRequestInput = z.object({ email: validEmail });

/** The token comes from the link; the API says whether it still works. */
export const passwordResetInput = z
  .object({
    token: z.string().check(z.minLength(1, "TOKEN_INVALID"), z.maxLength(200, "TOKEN_INVALID")),
    password: requiredPassword,
    // The account's address, where the one checking knows it (the API, after reading the token).
    email: z.nullish(z.string()),
  })
  .check(z.superRefine(({ password, email }, context) => checkNewPassword(context, password, email?.toLowerCase())));

export const emailChangeInput = z.object({ email: validEmail });

export const accountTokenInput = z.object({ token: z.string().check(z.minLength(1, "TOKEN_INVALID"), z.maxLength(200, "TOKEN_INVALID")) });
