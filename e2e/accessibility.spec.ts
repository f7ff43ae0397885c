import AxeBuilder from "@axe-core/playwright";
import { expect, gotoHydrated, test } from "./fixtures";
import { accountWithPlace } from "./support/graphql";
import { E2eAccessibilitySaveGustsRuleDocument } from "./support/documents.generated";

/*
 * axe-core on both screens, signed out and signed in, in light and dark mode: no serious
 * or critical violations (labels, names, colour contrast, landmarks, ARIA use).
 */
for (const mode of ["light", "dark"] as const) {
  test(`no serious or critical accessibility violations in ${mode} mode`, async ({ page, context, request, baseURL }) => {
    test.setTimeout(60_000);
    await page.emulateMedia({ colorScheme: mode });
    const check = async (label: string) => {
      const results = await new AxeBuilder({ page }).analyze();
      const serious = results.violations
        .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
        .map(
          (violation) =>
            `${label}: ${violation.id} (${violation.impact}) ${violation.nodes
              .map((node) => node.target.join(" "))
              .slice(0, 3)
              .join(" | ")}`,
        );
      expect(serious).toEqual([]);
    };
    for (const path of ["/", "/settings"]) {
      await gotoHydrated(page, path);
      await check(`visitor ${path}`);
    }
    const account = await accountWithPlace(request, baseURL!, "Axe Harbour", context);
    await account.sendBriefing();
    await account.gql(E2eAccessibilitySaveGustsRuleDocument);
    for (const path of ["/", "/settings"]) {
      await gotoHydrated(page, path);
      await check(`signed in ${path}`);
    }
    await page.getByRole("button", { name: "New alert rule" }).click();
    await expect(page.getByRole("dialog", { name: "New alert rule" })).toBeVisible();
    await check("rule editor");
  });
}
