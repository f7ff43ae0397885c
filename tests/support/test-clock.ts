import { execFileSync } from "node:child_process";

/**
 * The pinned test clock (scripts/test-clock.mjs): libfaketime's variables and the time zone, which every process of a
 * test run must share. A process started with an environment of its own gets them from `testClockEnv()`.
 */
const CLOCK_VARIABLES = ["LD_PRELOAD", "FAKETIME", "FAKETIME_DONT_FAKE_MONOTONIC", "TZ", "TEST_NOW"] as const;

export function testClockEnv(): Record<string, string> {
  return Object.fromEntries(CLOCK_VARIABLES.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])));
}

/**
 * This environment without libfaketime, for programs that read no time the tests compare (PostgreSQL: the app asks it
 * for none) or that run far slower under it (Chromium, whose pages get the clock from Playwright instead). TZ stays.
 */
export function withoutFakedClock(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && entry[0] !== "LD_PRELOAD" && !entry[0].startsWith("FAKETIME"),
    ),
  );
}

/**
 * The real time in ms, which the pinned processes cannot read: for what Chromium keeps on its own clock (cookie
 * expiry times).
 */
export function realNow(): number {
  return Number(execFileSync("date", ["+%s%3N"], { env: withoutFakedClock(), encoding: "utf8" }).trim());
}
