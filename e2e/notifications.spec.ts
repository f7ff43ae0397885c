import type { Page } from "@playwright/test";
import { expect, gotoHydrated, test } from "./fixtures";

test.describe("toasts and tooltips", () => {
  test("a server action's toast appears at the bottom centre and F8 focuses the region", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await gotoHydrated(page, "/settings");
    await page.getByLabel("Interface language").selectOption("en-US");
    await page.getByRole("button", { name: "Apply" }).click();

    const toast = page.getByRole("region", { name: "Notifications (F8)" }).getByRole("listitem");
    await expect(toast).toHaveText(/^Language changed to American English\./);
    await expect(toast).toBeVisible();
    const box = await toast.boundingBox();
    expect(box).not.toBeNull();
    const centre = box!.x + box!.width / 2;
    expect(Math.abs(centre - 640)).toBeLessThan(2);
    expect(800 - (box!.y + box!.height)).toBeLessThanOrEqual(32);

    await page.keyboard.press("F8");
    const region = page.getByRole("region", { name: "Notifications (F8)" });
    await expect(region.locator("ol")).toBeFocused();
    // Stacked toasts sit 16 px apart.
    await expect(region.locator("ol")).toHaveCSS("row-gap", "16px");

    // The flash cookie is consumed: a reload shows no toast again.
    await page.reload();
    await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
    await expect(page.getByRole("region", { name: "Notifications (F8)" }).getByRole("listitem")).toHaveCount(0);
  });

  // Timing tests stop the page's clock: on a busy machine real seconds pass unevenly, and a
  // delay measured in them fails for reasons of its own.
  const standClock = async (page: Page) => page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));

  test("a toast closes by itself after 5 s", async ({ page }) => {
    await gotoHydrated(page, "/settings");
    await standClock(page);
    await page.getByLabel("Interface language").selectOption("en-US");
    await page.getByRole("button", { name: "Apply" }).click();
    const toast = page.getByRole("region", { name: "Notifications (F8)" }).getByRole("listitem");
    await expect(toast).toBeVisible();
    await page.clock.runFor(4_900);
    await expect(toast).toBeVisible();
    await page.clock.runFor(200);
    await expect(toast).toHaveCount(0);
  });

  test("a tooltip opens after hovering for 700 ms; the next one within 300 ms opens at once", async ({ page }) => {
    await gotoHydrated(page, "/");
    const about = page.getByRole("button", { name: "About Weatherbot" });
    const colourMode = page.getByRole("button", { name: /^Colour mode:/ });
    // Tooltips load when the browser is idle; Radix marks its triggers with data-state.
    await expect(about).toHaveAttribute("data-state", "closed");
    await standClock(page);

    await about.hover();
    await page.clock.runFor(690);
    await expect(page.getByRole("tooltip")).toHaveCount(0);
    await page.clock.runFor(10);
    await expect(page.getByRole("tooltip")).toHaveText("About Weatherbot");

    // Moving straight to the neighbouring control skips the delay: it opens within 10 ms of the
    // page's time. The pointer travels there as a hand moves it (Radix lets the open tooltip go
    // once the pointer has left its way to the content).
    const target = (await colourMode.boundingBox())!;
    await page.mouse.move(target.x + target.width / 2, target.y + target.height / 2, { steps: 10 });
    await page.clock.runFor(10);
    await expect(page.getByRole("tooltip")).toHaveText(/^Colour mode: System/);
  });

  test.describe("without the service worker", () => {
    // The worker would answer the chunk from its precache, out of the test's reach.
    test.use({ serviceWorkers: "block" });

    test("a control focused before tooltips load keeps focus, and tooltips open on focus", async ({ page }) => {
      // Hold the tooltip chunk back so the control is surely focused before it arrives.
      await page.route(/\/assets\/tooltip-radix-[^/]+\.js$/, async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        await route.continue();
      });
      await gotoHydrated(page, "/");
      const about = page.getByRole("button", { name: "About Weatherbot" });
      await about.focus();
      await expect(about).not.toHaveAttribute("data-state");
      await expect(about).toHaveAttribute("data-state", /closed|instant-open|delayed-open/, { timeout: 5_000 });
      await expect(about).toBeFocused();
      // Reached by keyboard before its tip could show, it shows it once tips have loaded.
      await expect(page.getByRole("tooltip")).toHaveText("About Weatherbot");
      await page.keyboard.press("Tab");
      await expect(page.getByRole("button", { name: /^Colour mode:/ })).toBeFocused();
      await expect(page.getByRole("tooltip")).toHaveText(/^Colour mode: System/);
    });
  });
});

test.describe("overlays and the loading bar", () => {
  test("the about overlay opens from the header, traps focus and closes with Escape", async ({ page }) => {
    await gotoHydrated(page, "/");
    const opener = page.getByRole("button", { name: "About Weatherbot" });
    await opener.click();
    const dialog = page.getByRole("dialog", { name: "About Weatherbot" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(/Build \d{14}-/);
    await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
  });

  test("focus returns to the opener even when its tooltip loaded while the overlay was open", async ({ page }) => {
    // Idle callbacks wait until the test releases them: the tooltip switch happens mid-dialog.
    await page.addInitScript(() => {
      const held: IdleRequestCallback[] = [];
      Object.assign(window, { heldIdle: held });
      window.requestIdleCallback = (callback) => held.push(callback);
    });
    await gotoHydrated(page, "/");
    const opener = page.getByRole("button", { name: "About Weatherbot" });
    await expect(opener).not.toHaveAttribute("data-state");
    await opener.click();
    const dialog = page.getByRole("dialog", { name: "About Weatherbot" });
    await expect(dialog).toBeVisible();
    await page.evaluate(() =>
      (window as unknown as { heldIdle: IdleRequestCallback[] }).heldIdle
        .splice(0)
        .forEach((callback) => callback({ didTimeout: false, timeRemaining: () => 50 })),
    );
    await expect(opener).toHaveAttribute("data-state", "closed");
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
  });

  test("tooltips load without replacing any control: a press begun before they load still opens the overlay", async ({ page }) => {
    await page.addInitScript(() => {
      const held: IdleRequestCallback[] = [];
      Object.assign(window, { heldIdle: held });
      window.requestIdleCallback = (callback) => held.push(callback);
    });
    await gotoHydrated(page, "/");
    const opener = page.getByRole("button", { name: "About Weatherbot" });
    await expect(opener).not.toHaveAttribute("data-state");
    await page.evaluate(() => Object.assign(window, { controlsBefore: [...document.querySelectorAll("a, button")] }));
    const box = (await opener.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.evaluate(() =>
      (window as unknown as { heldIdle: IdleRequestCallback[] }).heldIdle
        .splice(0)
        .forEach((callback) => callback({ didTimeout: false, timeRemaining: () => 50 })),
    );
    await expect(opener).toHaveAttribute("data-state");
    await page.mouse.up();
    await expect(page.getByRole("dialog", { name: "About Weatherbot" })).toBeVisible();
    const replaced = await page.evaluate(() =>
      (window as unknown as { controlsBefore: Element[] }).controlsBefore
        .filter((control) => !control.isConnected)
        .map((control) => control.getAttribute("aria-label") ?? control.textContent),
    );
    expect(replaced).toEqual([]);
  });

  test("a slow navigation shows a 3 px loading bar, never before the 200 ms throttle", async ({ page }) => {
    await gotoHydrated(page, "/");
    const bar = page.getByTestId("navigation-progress");
    // Measured in the page, so a slow machine can only make the bar appear later, not earlier.
    const appearedAfterMs = page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const started = performance.now();
          new MutationObserver((_, observer) => {
            if (!document.querySelector('[data-testid="navigation-progress"]')) return;
            observer.disconnect();
            resolve(performance.now() - started);
          }).observe(document.body, { childList: true, subtree: true });
          const router = (window as unknown as { __reactRouterDataRouter: { navigate: (to: string) => Promise<void> } })
            .__reactRouterDataRouter;
          void router.navigate("/__test/slow?ms=1500");
        }),
    );
    expect(await appearedAfterMs).toBeGreaterThanOrEqual(200);
    await expect(bar).toBeVisible();
    await expect(bar).toHaveCSS("height", "3px");
    await expect(bar).toHaveAttribute("aria-label", "Loading page");
    await expect(page.getByRole("heading", { name: "Slow page (1500 ms)" })).toBeVisible();
    await expect(bar).toHaveCount(0);
  });
});
