import type { Locator, Page } from "@playwright/test";
import { expect } from "../fixtures";

/** The switcher's row of the place with this label. */
export const placeRow = (page: Page, label: string): Locator =>
  page
    .getByTestId("places")
    .getByRole("link")
    .filter({ has: page.getByTestId("place-label").getByText(label, { exact: true }) });

/** Opens a saved place from the switcher (one place is shown whole at a time) and waits for its card. */
export async function openPlace(page: Page, label: string): Promise<Locator> {
  await placeRow(page, label).click();
  const card = page.getByTestId("open-place").getByRole("article", { name: label, exact: true });
  await expect(card).toBeVisible();
  return card;
}
