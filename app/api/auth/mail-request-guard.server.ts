import type { ApiContext } from "../context.server";
import { apiError } from "../errors.server";
import type { RateLimits, WindowRule } from "./rate-limit.server";

/**
 * Mail the account pages send on request, limited as log-ins are (login-guard.server.ts), in
 * the database so every instance counts against the same limits: per client address, whatever
 * the addresses asked for, and per account (an address typed into the reset form, or the
 * signed-in account), so nobody can flood an inbox or the SMTP server. Every request counts.
 */
export const MAIL_REQUEST_LIMITS = {
  windowMs: 60 * 60_000,
  perAddress: 20,
  perAccount: 5,
} as const;

const RULES = {
  resetPerAddress: { name: "reset:address", limit: MAIL_REQUEST_LIMITS.perAddress, windowMs: MAIL_REQUEST_LIMITS.windowMs },
  resetPerAccount: { name: "reset:account", limit: MAIL_REQUEST_LIMITS.perAccount, windowMs: MAIL_REQUEST_LIMITS.windowMs },
  changePerAddress: { name: "email-change:address", limit: MAIL_REQUEST_LIMITS.perAddress, windowMs: MAIL_REQUEST_LIMITS.windowMs },
  changePerAccount: { name: "email-change:account", limit: MAIL_REQUEST_LIMITS.perAccount, windowMs: MAIL_REQUEST_LIMITS.windowMs },
} satisfies Record<string, WindowRule>;

async function take(limits: RateLimits, counts: Parameters<RateLimits["take"]>[0]) {
  const taken = await limits.take(counts);
  if ("waitMs" in taken) {
    const retryAfterSeconds = Math.ceil(taken.waitMs / 1000);
    throw apiError("RATE_LIMITED", `Too many requests; try again in ${retryAfterSeconds} seconds`, { retryAfterSeconds });
  }
}

/** Counts a reset request for `email` (known or not: the answer must not tell) from the caller's address, or throws RATE_LIMITED. */
export const limitResetRequest = (context: ApiContext, email: string) =>
  take(context.rateLimits, [
    { rule: RULES.resetPerAddress, key: context.clientIp },
    { rule: RULES.resetPerAccount, key: email },
  ]);

/** Counts an email-change request of the signed-in account, or throws RATE_LIMITED. */
export const limitEmailChangeRequest = (context: ApiContext, userId: string) =>
  take(context.rateLimits, [
    { rule: RULES.changePerAddress, key: context.clientIp },
    { rule: RULES.changePerAccount, key: userId },
  ]);
