// `npm run test:calendar`: the tests whose subject is a time of day, a weekday or a date, run with the server, the
// tests and the browser all moved to instants where calendars are awkward. Not part of `npm test` (about 25 minutes).
//
//   node scripts/test-calendar.mjs [--only <label part>]
//
// Each instant runs the listed vitest files and Playwright specs under scripts/test-clock.mjs; the script prints each
// instant and its result, and exits non-zero if any failed.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

/** Instants as UTC ISO strings, with the time zone the processes run in (Berlin: the e2e accounts' zone too). */
export const INSTANTS = [
  { label: "a Friday 23:30 in Berlin", at: "2026-12-04T22:30:00Z", timeZone: "Europe/Berlin" },
  { label: "a Sunday 12:00 in Berlin", at: "2026-12-06T11:00:00Z", timeZone: "Europe/Berlin" },
  { label: "the last Sunday of March, 01:30 in Berlin (the clocks jump at 02:00)", at: "2027-03-28T00:30:00Z", timeZone: "Europe/Berlin" },
  { label: "the last Sunday of October, 02:30 in Berlin (the first of two)", at: "2027-10-31T00:30:00Z", timeZone: "Europe/Berlin" },
  { label: "31 December, 23:59 in New York", at: "2027-01-01T04:59:00Z", timeZone: "America/New_York" },
  { label: "29 February, 12:00 UTC", at: "2028-02-29T12:00:00Z", timeZone: "UTC" },
];

/** Unit and integration tests (on SQLite) about times of day, weekdays, dates, time zones and the bot's schedule. */
export const VITEST_FILES = [
  "tests/unit/zoned-time.test.ts",
  "tests/unit/time-zone.test.ts",
  "tests/unit/alert-evaluator.test.ts",
  "tests/unit/rain-soon.test.ts",
  "tests/unit/nowcast.test.ts",
  "tests/unit/scheduler.test.ts",
  "tests/unit/units.test.ts",
  "tests/unit/message-format.test.ts",
  "tests/unit/relative-age.test.ts",
  "tests/unit/open-meteo-parse.test.ts",
  "tests/unit/air-quality.test.ts",
  "tests/unit/inbox-order.test.ts",
  "tests/unit/ids.test.ts",
  "tests/unit/bot-texts.test.ts",
  "tests/integration/places.test.ts",
  "tests/integration/briefings.test.ts",
  "tests/integration/graphcache.test.ts",
  "tests/integration/weather.test.ts",
  "tests/integration/air-quality.test.ts",
  "tests/integration/alerts.test.ts",
  "tests/integration/air-quality-alerts.test.ts",
  "tests/integration/message-text.test.ts",
  "tests/integration/undo-removal.test.ts",
  "tests/integration/push.test.ts",
  "tests/integration/result-cache.test.ts",
  "tests/integration/metrics.test.ts",
  "tests/integration/batched-reads.test.ts",
];

/** The e2e specs that show or set times of day, weekdays and dates. */
export const E2E_SPECS = [
  "e2e/alert-rules.spec.ts",
  "e2e/briefings.spec.ts",
  "e2e/day-detail.spec.ts",
  "e2e/screens.spec.ts",
  "e2e/message-text.spec.ts",
  "e2e/more-of-the-sky.spec.ts",
  "e2e/nowcast.spec.ts",
  "e2e/preferences.spec.ts",
  "e2e/compact-cards.spec.ts",
  "e2e/inbox.spec.ts",
];

function run(command, args, env) {
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  return result.status === 0;
}

const onlyIndex = process.argv.indexOf("--only");
const only = onlyIndex >= 0 ? process.argv[onlyIndex + 1] : undefined;
const instants = only ? INSTANTS.filter((instant) => instant.label.includes(only)) : INSTANTS;

if (!existsSync("build/server/index.js") || !process.argv.includes("--no-build")) {
  if (!run("npm", ["run", "build"], {})) process.exit(1);
}

const results = [];
for (const instant of instants) {
  console.log(`\n▶ ${instant.label}: ${instant.at} (${instant.timeZone})`);
  // Each command pins its own clock at the instant (its processes then share it); a run already pinned would keep its own.
  const env = { TEST_NOW: instant.at, TEST_TZ: instant.timeZone, FAKETIME: "", LD_PRELOAD: "", E2E_NO_NEXT_BUILD: "1", CI: "1" };
  const vitest = run(
    "node",
    ["scripts/test-clock.mjs", "npx", "vitest", "run", "--project", "unit", "--project", "integration-sqlite", ...VITEST_FILES],
    env,
  );
  const e2e = run("node", ["scripts/test-clock.mjs", "npx", "playwright", "test", ...E2E_SPECS], env);
  results.push({ ...instant, vitest, e2e });
}

console.log("\nTest calendar:");
for (const { label, at, timeZone, vitest, e2e } of results) {
  const word = (ok) => (ok ? "passed" : "FAILED");
  console.log(`  ${at} ${timeZone.padEnd(16)} vitest ${word(vitest)}, e2e ${word(e2e)}  ${label}`);
}
const failed = results.filter((result) => !result.vitest || !result.e2e).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
