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

/** Searches in a place search (the empty home's, the "Add a place" dialog's) and chooses the result named `name` by keyboard. */
export async function choosePlace(scope: Locator, query: string, name: RegExp): Promise<void> {
  const search = scope.getByRole("combobox", { name: "Search for a place" });
  await search.fill(query);
  await expect(scope.getByRole("option", { name })).toBeVisible();
  await search.press("ArrowDown");
  await search.press("Enter");
}
