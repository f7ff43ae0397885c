import type { Locator, Page } from "@playwright/test";
import { expect, gotoHydrated, test } from "./fixtures";
import { accountWithPlace } from "./support/graphql";
import { E2eTargetsSaveGustsRuleDocument } from "./support/documents.generated";

/** The area that takes a tap for a control: its label when it sits inside one (a checkbox's), else itself. */
async function targetSize(control: Locator) {
  return control.evaluate((element) => {
    const target = element.closest("label") ?? element;
    const box = target.getBoundingClientRect();
    return { width: Math.round(box.width), height: Math.round(box.height) };
  });
}

/** WCAG contrast of the focused element's outline against the page and card backgrounds. */
async function focusRingContrast(page: Page) {
  return page.evaluate(() => {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 1;
    const context = canvas.getContext("2d", { willReadFrequently: true })!;
    const rgb = (color: string) => {
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = color;
      context.fillRect(0, 0, 1, 1);
      return [...context.getImageData(0, 0, 1, 1).data.slice(0, 3)];
    };
    const luminance = (color: string) => {
      const [r, g, b] = rgb(color).map((channel) => {
        const c = channel / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const ratio = (a: string, b: string) => {
      const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return (light! + 0.05) / (dark! + 0.05);
    };
    const focused = document.activeElement as HTMLElement;
    const style = getComputedStyle(focused);
    const ring = style.outlineColor;
    const page = getComputedStyle(document.body).backgroundColor;
    const card = getComputedStyle(document.querySelector(".card")!).backgroundColor;
    return {
      visible: focused.matches(":focus-visible") && style.outlineStyle !== "none",
      onPage: ratio(ring, page),
      onCard: ratio(ring, card),
    };
  });
}

for (const mode of ["light", "dark"] as const) {
  test(`the focus ring has at least 3:1 contrast in ${mode} mode`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: mode });
    await gotoHydrated(page, "/settings");
    if (mode === "dark") await expect(page.locator("html")).toHaveClass(/\bdark\b/);
    for (const control of [
      page.getByRole("button", { name: "About Weatherbot" }),
      page.getByLabel("Email"),
      page.getByRole("button", { name: "Log in" }),
    ]) {
      await control.focus();
      const contrast = await focusRingContrast(page);
      expect(contrast.visible).toBe(true);
      expect(contrast.onPage).toBeGreaterThanOrEqual(3);
      expect(contrast.onCard).toBeGreaterThanOrEqual(3);
    }
  });
}

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test("the logo, the unread badge and the on/off switches are at least 44 × 44 px targets", async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    const account = await accountWithPlace(request, baseURL!, "Tap Town", context);
    await account.sendBriefing();
    await account.gql(E2eTargetsSaveGustsRuleDocument);
    await gotoHydrated(page, "/");
    const sizes: Record<string, { width: number; height: number }> = {
      logo: await targetSize(page.getByRole("link", { name: "Weatherbot", exact: true })),
      badge: await targetSize(page.getByTestId("unread-badge")),
    };
    await gotoHydrated(page, "/settings");
    const switches = page.getByRole("switch");
    expect(await switches.count()).toBeGreaterThanOrEqual(2);
    for (let i = 0; i < (await switches.count()); i++) {
      sizes[
        `switch ${(await switches.nth(i).getAttribute("aria-label")) ?? (await switches.nth(i).evaluate((element) => element.closest("label")?.textContent ?? i))}`
      ] = await targetSize(switches.nth(i));
    }
    const small = Object.entries(sizes).filter(([, size]) => size.width < 44 || size.height < 44);
    expect(small).toEqual([]);
  });
});
