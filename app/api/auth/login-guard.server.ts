import { apiError } from "../errors.server";
import type { RateLimits, WindowRule } from "./rate-limit.server";

/**
 * Failed log-ins allowed within the window: per address (whatever the accounts), per
 * account from one address, and per account from everywhere together.
 */
export const LOGIN_LIMITS = {
  windowMs: 15 * 60_000,
  perAddress: 20,
  perAccountFromAddress: 5,
  perAccount: 30,
} as const;

export type LoginAttempt = {
  /** The password was right: this attempt is not a failure, and the address's failures for the account are forgiven. */
  succeeded(): Promise<void>;
  /** The password was never checked (the server was too busy): the attempt does not count. */
  abandoned(): Promise<void>;
};

/** Between the email and the address in the key of a count per account and address. */
export const ACCOUNT_KEY_SEPARATOR = "\n";

const RULES = {
  perAddress: { name: "login:address", limit: LOGIN_LIMITS.perAddress, windowMs: LOGIN_LIMITS.windowMs },
  perAccountFromAddress: { name: "login:account-address", limit: LOGIN_LIMITS.perAccountFromAddress, windowMs: LOGIN_LIMITS.windowMs },
  perAccount: { name: "login:account", limit: LOGIN_LIMITS.perAccount, windowMs: LOGIN_LIMITS.windowMs },
} satisfies Record<string, WindowRule>;

/**
 * Log-in limits, counted in the database (every instance counts against the same ones).
 * An attempt is counted when it begins, before its password is hashed, so attempts sent
 * at once meet the limits as attempts sent one by one do; one that turns out right is
 * taken back. Someone guessing from one address locks the account for that address only,
 * so the owner elsewhere can still log in; many addresses together meet the account's
 * own, larger cap. A blocked address blocks only attempts from itself.
 */
export function createLoginGuard(limits: RateLimits) {
  return {
    /** Counts an attempt by `address` for `email`, or throws RATE_LIMITED when it may not be made now. */
    async begin(email: string, address: string): Promise<LoginAttempt> {
      const pairKey = `${email}${ACCOUNT_KEY_SEPARATOR}${address}`;
      // Checked and counted in one step: two attempts (on any instances) cannot both take the last slot.
      const taken = await limits.take([
        { rule: RULES.perAddress, key: address },
        { rule: RULES.perAccountFromAddress, key: pairKey },
        { rule: RULES.perAccount, key: email },
      ]);
      if ("waitMs" in taken) {
        const retryAfterSeconds = Math.ceil(taken.waitMs / 1000);
        throw apiError("RATE_LIMITED", `Too many failed log-ins; try again in ${retryAfterSeconds} seconds`, { retryAfterSeconds });
      }
      return {
        async succeeded() {
          await limits.release(taken);
          await limits.reset(RULES.perAccountFromAddress, pairKey);
        },
        abandoned: () => limits.release(taken),
      };
    },
  };
}

export type LoginGuard = ReturnType<typeof createLoginGuard>;

/** The rules whose keys name an account (its email, alone or with an address): a deleted account's events go with it. */
export const ACCOUNT_RULE_NAMES = [RULES.perAccountFromAddress.name, RULES.perAccount.name] as const;
