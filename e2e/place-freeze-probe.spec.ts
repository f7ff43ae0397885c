import type { Page } from "@playwright/test";
import { expect, gotoHydrated, test } from "./fixtures";
import { accountWithPlace, signInBrowser } from "./support/graphql";
import { E2eAddPlaceDocument } from "./support/documents.generated";

const rows = (page: Page) => page.getByTestId("places").getByRole("link");
const openCard = (page: Page) => page.getByTestId("open-place").getByTestId("forecast-card");

test.use({ viewport: { width: 1280, height: 900 } });

test("probe: places opened in a row", async ({ page, request, context, baseURL }) => {
  const account = await accountWithPlace(request, baseURL!, "Alpha");
  for (const label of ["Beta", "Gamma"]) await account.gql(E2eAddPlaceDocument, { label });
  await signInBrowser(context, baseURL!, account.token);
  await gotoHydrated(page, "/");
  await rows(page).nth(1).click();
  await expect(openCard(page)).toHaveAttribute("aria-label", "Beta");
  await rows(page).nth(2).click();
  await expect(openCard(page)).toHaveAttribute("aria-label", "Gamma");
  await rows(page).nth(0).click();
  await expect(openCard(page)).toHaveAttribute("aria-label", "Alpha");
});
