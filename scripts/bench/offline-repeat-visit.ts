/**
 * A repeat visit to `/` answered by the service worker with the server stopped: time to
 * the first contentful paint, median of several reloads (target ≤ 300 ms on loopback).
 */
import { chromium } from "@playwright/test";
import { startAppServer } from "../../e2e/support/app-server";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../e2e/support/chromium";
import { median } from "./median";

const RELOADS = 7;

export async function benchOfflineRepeatVisit() {
  const server = await startAppServer({ TEST_HOOKS: "0" });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    await page.goto(`${server.baseURL}/`);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15_000 });
    await page.waitForFunction(async () => (await (await caches.open("weatherbot-pages")).keys()).length >= 2, null, { timeout: 15_000 });
    await server.stop();
    const samples: number[] = [];
    for (let i = 0; i < RELOADS; i++) {
      await page.reload({ waitUntil: "load" });
      const fcp = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const entry = performance.getEntriesByName("first-contentful-paint")[0];
            if (entry) return resolve(entry.startTime);
            new PerformanceObserver((list) => resolve(list.getEntries()[0]!.startTime)).observe({ type: "paint", buffered: true });
          }),
      );
      samples.push(fcp);
    }
    return { medianMs: median(samples), samples };
  } finally {
    await browser.close();
    await server.stop();
  }
}
