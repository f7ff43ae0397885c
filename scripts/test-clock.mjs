// Runs a test command with the wall clock and time zone pinned, so that no test's outcome depends on when it runs.
//
//   node scripts/test-clock.mjs <command> [args…]
//
// Every process the command starts (vitest and its workers, the servers the tests spawn, the Playwright runner and
// the loopback fakes) reads the same shifted clock: libfaketime (Debian's libfaketime, LD_PRELOAD) adds one offset
// to the real time, so the clock reads TEST_NOW when the command starts and runs on from there at its normal pace.
// TZ is TEST_TZ. Chromium is not preloaded (it runs many times slower under libfaketime): the e2e fixtures move each
// page's clock to the same time with Playwright's page clock (e2e/support/chromium.ts, e2e/fixtures.ts).
//
// A command run inside an already pinned one keeps its clock (npm test runs npm run test:unit).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";

/** A Wednesday morning in January: no daylight-saving change within two weeks anywhere the tests look, no month end. */
export const DEFAULT_TEST_NOW = "2031-01-15T10:00:00Z";
export const DEFAULT_TEST_TZ = "UTC";

function findLibfaketime() {
  for (const libDir of ["/usr/lib", "/usr/lib64"]) {
    if (!existsSync(libDir)) continue;
    for (const entry of readdirSync(libDir)) {
      const candidate = path.join(libDir, entry, "faketime", "libfaketime.so.1");
      if (existsSync(candidate)) return candidate;
    }
    const direct = path.join(libDir, "faketime", "libfaketime.so.1");
    if (existsSync(direct)) return direct;
  }
  return null;
}

/** libfaketime's path, installing Debian's package when running as root with apt; null with a message otherwise. */
export function ensureLibfaketime() {
  const found = findLibfaketime();
  if (found) return found;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot || !existsSync("/usr/bin/apt-get")) {
    console.error("libfaketime not found: install it (sudo apt-get install -y libfaketime); the tests pin their clock with it.");
    return null;
  }
  console.log("libfaketime not found: installing Debian's libfaketime package…");
  spawnSync("sh", ["-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libfaketime"], {
    stdio: "inherit",
  });
  return findLibfaketime();
}

/** The environment that pins the clock at `at` (an ISO instant) in `timeZone`, starting now. */
export function pinnedClockEnv(library, at, timeZone) {
  const target = Date.parse(at);
  if (Number.isNaN(target)) throw new Error(`TEST_NOW: "${at}" is not an ISO date and time`);
  const offsetSeconds = Math.round((target - Date.now()) / 1000);
  return {
    LD_PRELOAD: library,
    FAKETIME: `${offsetSeconds >= 0 ? "+" : ""}${offsetSeconds}s`,
    // Timers and timeouts stay on the real monotonic clock: only the calendar moves.
    FAKETIME_DONT_FAKE_MONOTONIC: "1",
    TZ: timeZone,
    TEST_NOW: at,
  };
}

function main() {
  const [command, ...args] = process.argv.slice(2);
  if (!command) {
    console.error("usage: node scripts/test-clock.mjs <command> [args…]");
    process.exit(2);
  }
  let env = process.env;
  if (!process.env.FAKETIME) {
    const library = ensureLibfaketime();
    if (!library) process.exit(1);
    const at = process.env.TEST_NOW || DEFAULT_TEST_NOW;
    const timeZone = process.env.TEST_TZ || DEFAULT_TEST_TZ;
    env = { ...process.env, ...pinnedClockEnv(library, at, timeZone) };
    console.log(`Test clock: ${at} (${timeZone}), running on from there.`);
  }
  const result = spawnSync(command, args, { stdio: "inherit", env });
  if (result.error) throw result.error;
  process.exit(result.status ?? 1);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
