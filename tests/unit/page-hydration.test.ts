import { describe, expect, it, vi } from "vitest";

/** A fresh copy of the module (its state is the page's), and whether its promise has settled. */
async function page() {
  vi.resetModules();
  const hydration = await import("~/lib/page-hydration");
  let settled = false;
  void hydration.pageHydration.then(() => (settled = true));
  const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { ...hydration, settled: () => settled, flush };
}

describe("pageHydration", () => {
  it("settles when the root has committed and nothing waits", async () => {
    const { rootHydrated, settled, flush } = await page();
    await flush();
    expect(settled()).toBe(false);
    rootHydrated();
    await flush();
    expect(settled()).toBe(true);
  });

  it("waits for a part that hydrates in a pass of its own, whichever of the two ends first", async () => {
    const { rootHydrated, partWaiting, partDone, settled, flush, DASHBOARD_PART } = await page();
    partWaiting(DASHBOARD_PART);
    rootHydrated();
    await flush();
    expect(settled()).toBe(false);
    partDone(DASHBOARD_PART);
    await flush();
    expect(settled()).toBe(true);
  });

  it("is not settled by a part that is done before the root has committed", async () => {
    const { rootHydrated, partWaiting, partDone, settled, flush, DASHBOARD_PART } = await page();
    partWaiting(DASHBOARD_PART);
    partDone(DASHBOARD_PART);
    await flush();
    expect(settled()).toBe(false);
    rootHydrated();
    await flush();
    expect(settled()).toBe(true);
  });
});
