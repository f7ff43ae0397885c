import { withoutFakedClock } from "../../tests/support/test-clock";

// Debian's Chromium: browsers cannot be downloaded on this project's machines.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Without the networking flags Chromium keeps calling Google's services, which a closed network never answers. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Chromium's environment: the run's time zone, without libfaketime (Chromium runs many times slower under it). Pages get
 * the pinned clock from Playwright's clock instead (e2e/fixtures.ts); the cookie store keeps real time, and the server
 * sets cookies by Max-Age, which does not depend on whose clock reads what.
 */
export const CHROMIUM_ENV = withoutFakedClock();
