import { apiError } from "../errors.server";
import { createWindowLimiter } from "./rate-limit.server";

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
  succeeded(): void;
  /** The password was never checked (the server was too busy): the attempt does not count. */
  abandoned(): void;
};

/**
 * Log-in limits. An attempt is counted when it begins, before its password is hashed,
 * so attempts sent at once meet the limits as attempts sent one by one do; one that
 * turns out right is taken back. Someone guessing from one address locks the account
 * for that address only, so the owner elsewhere can still log in; many addresses
 * together meet the account's own, larger cap. A blocked address blocks only attempts
 * from itself.
 */
export function createLoginGuard(now: () => number = Date.now) {
  const window = { windowMs: LOGIN_LIMITS.windowMs, now };
  const perAddress = createWindowLimiter({ limit: LOGIN_LIMITS.perAddress, ...window });
  const perAccountFromAddress = createWindowLimiter({ limit: LOGIN_LIMITS.perAccountFromAddress, ...window });
  const perAccount = createWindowLimiter({ limit: LOGIN_LIMITS.perAccount, ...window });

  return {
    /** Counts an attempt by `address` for `email`, or throws RATE_LIMITED when it may not be made now. */
    begin(email: string, address: string): LoginAttempt {
      const pairKey = `${email}\n${address}`;
      const counters = [
        [perAddress, address],
        [perAccountFromAddress, pairKey],
        [perAccount, email],
      ] as const;
      const waitMs = Math.max(...counters.map(([limiter, key]) => limiter.retryAfterMs(key)));
      if (waitMs > 0) {
        const retryAfterSeconds = Math.ceil(waitMs / 1000);
        throw apiError("RATE_LIMITED", `Too many failed log-ins; try again in ${retryAfterSeconds} seconds`, { retryAfterSeconds });
      }
      // Synchronously after the check: no other attempt can slip in between.
      const takeBack = counters.map(([limiter, key]) => limiter.record(key));
      return {
        succeeded() {
          for (const release of takeBack) release();
          perAccountFromAddress.reset(pairKey);
        },
        abandoned() {
          for (const release of takeBack) release();
        },
      };
    },
  };
}

export type LoginGuard = ReturnType<typeof createLoginGuard>;
