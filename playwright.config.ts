import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_ENV, CHROMIUM_PATH } from "./e2e/support/chromium";

export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/global-setup.ts",
  outputDir: "test-results",
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  forbidOnly: true,
  retries: 0,
  // Generous bounds for states the tests wait for: on a busy 2-core machine a sign-up (a real
  // scrypt hash) or a first page load can take several seconds. Nothing waits them out.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never", outputFolder: "playwright-report" }]],
  use: {
    browserName: "chromium",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, env: CHROMIUM_ENV },
  },
});
