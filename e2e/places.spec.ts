import { expect, gotoHydrated, test } from "./fixtures";
import { accountWithPlace, recordGraphQLOperations, signInBrowser, type RecordedOperation } from "./support/graphql";
import { E2ePlacesAddAtDocument, E2ePlacesServerOrderDocument } from "./support/documents.generated";
import { choosePlace, openPlace } from "./support/places";

/** Typing pauses this long before a search is sent (docs/product-constants.md; SEARCH_DEBOUNCE_MS in location-search.tsx). */
const SEARCH_DEBOUNCE_MS = 200;

const names = (operations: RecordedOperation[]) => operations.map((operation) => operation.operationName);
/** The query of each place search among them. */
const searches = (operations: RecordedOperation[]) =>
  operations.filter((operation) => operation.operationName === "SearchLocations").map((operation) => operation.variables?.query);

test("a visitor searches (debounced, keyboard only) and sees the chosen place's forecast", async ({ page }) => {
  // The page's clock (the fixtures install it) stands still while typing, so a slow machine cannot stretch a gap
  // between two keys past the pause and the count below is about the debounce alone.
  await gotoHydrated(page, "/");
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
  const operations = recordGraphQLOperations(page);
  const search = page.getByRole("combobox", { name: "Search for a place" });
  await search.click();
  await search.pressSequentially("Zu", { delay: 20 });
  await page.clock.runFor(SEARCH_DEBOUNCE_MS - 50);
  await search.pressSequentially("rich", { delay: 20 });
  await page.clock.runFor(SEARCH_DEBOUNCE_MS - 1);
  // Requests go out in real time while the page's clock stands: give one sent now the time to show.
  await page.waitForTimeout(150);
  expect(searches(operations)).toEqual([]);
  await page.clock.runFor(1);
  // Still with the clock standing: the search goes out at 200 ms, not later. Typed with pauses
  // shorter than 200 ms: one search, for the whole word.
  await expect.poll(() => searches(operations)).toEqual(["Zurich"]);
  await page.clock.resume();
  const option = page.getByRole("option", { name: /Zurich/ });
  await expect(option).toBeVisible();
  expect(searches(operations)).toEqual(["Zurich"]);

  await search.press("ArrowDown");
  await expect(option).toHaveAttribute("aria-selected", "true");
  await expect(search).toHaveAttribute("aria-activedescendant", (await option.getAttribute("id"))!);
  await search.press("Enter");
  await expect(page.getByRole("listbox")).toBeHidden();
  const card = page.getByRole("article", { name: "Zurich" });
  await expect(card).toBeVisible();
  await expect(card).toContainText("Switzerland");
  await expect(card.getByTestId("current-temperature")).toHaveText(/^-?\d+ °F$/);
  await expect(card.getByRole("region", { name: "Next 24 hours" }).getByRole("listitem")).toHaveCount(24);
  await expect(card.getByRole("region", { name: "7 days" }).getByRole("listitem")).toHaveCount(7);
  await expect(card.getByRole("link", { name: "Weather data by Open-Meteo.com" })).toBeVisible();

  // Escape closes the results without choosing.
  await search.fill("Ber");
  await expect(page.getByRole("option", { name: /Berlin/ })).toBeVisible();
  await search.press("Escape");
  await expect(page.getByRole("listbox")).toBeHidden();
});

test("a signed-in user adds a place through the overlay; its card appears without a refetch", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  await accountWithPlace(request, baseURL!, "First Place", context);
  await gotoHydrated(page, "/");
  const operations = recordGraphQLOperations(page);

  await page.getByRole("button", { name: "Add a place" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a place" });
  await expect(dialog).toBeVisible();
  const search = dialog.getByRole("combobox", { name: "Search for a place" });
  await expect(search).toBeFocused();
  await choosePlace(dialog, "Par", /Paris/);
  await expect(dialog.getByTestId("chosen-location")).toContainText("Paris");
  await dialog.getByLabel("Label (optional)").fill("Studio");
  await dialog.getByRole("button", { name: "Add place" }).click();

  await expect(dialog).toBeHidden();
  await expect(
    page.getByRole("region", { name: "Notifications (F8)" }).getByRole("listitem").filter({ hasText: "Studio added." }),
  ).toBeVisible();
  const rows = page.getByTestId("places").getByTestId("place-label");
  await expect(rows).toHaveText(["First Place", "Studio"]);
  await expect(await openPlace(page, "Studio")).toContainText("Paris, Île-de-France, France");
  expect(names(operations)).toEqual(["SearchLocations", "AddPlace"]);
});

test("settings: rename, reorder by keyboard and pointer, remove with undo; home follows", async ({ page, context, request, baseURL }) => {
  const account = await accountWithPlace(request, baseURL!, "Alpha");
  for (const [label, lat] of [
    ["Bravo", 48.86],
    ["Charlie", 40.42],
  ] as const) {
    await account.gql(E2ePlacesAddAtDocument, {
      label,
      lat,
    });
  }
  await signInBrowser(context, baseURL!, account.token);
  await gotoHydrated(page, "/settings");
  const section = page.getByRole("region", { name: "Places" });
  const labels = () => section.getByRole("textbox").evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
  expect(await labels()).toEqual(["Alpha", "Bravo", "Charlie"]);

  // A pasted control character is a field error, in the user's language, and nothing is sent.
  const bravo = section.getByRole("textbox").nth(1);
  await bravo.fill("Bravo\u0007Bay");
  await bravo.press("Enter");
  await expect(section.getByRole("alert")).toHaveText("A label cannot contain control characters.");
  await expect(bravo).toHaveAttribute("aria-invalid", "true");

  // Rename with Enter.
  await bravo.fill("Bravo Bay");
  await bravo.press("Enter");
  await expect(
    page.getByRole("region", { name: "Notifications (F8)" }).getByRole("listitem").filter({ hasText: "Renamed to Bravo Bay." }),
  ).toBeVisible();

  // Keyboard: Charlie up, focus stays on its button.
  const charlieUp = section.getByRole("button", { name: "Move Charlie up" });
  await charlieUp.focus();
  await page.keyboard.press("Enter");
  await expect.poll(labels).toEqual(["Alpha", "Charlie", "Bravo Bay"]);
  await expect(charlieUp).toBeFocused();
  await expect(section.getByRole("status")).toHaveText("Charlie is now number 2.");
  // Pointer: Alpha down.
  await section.getByRole("button", { name: "Move Alpha down" }).click();
  await expect.poll(labels).toEqual(["Charlie", "Alpha", "Bravo Bay"]);

  // Remove, then undo: back in its place.
  await section.getByRole("button", { name: "Remove Alpha" }).click();
  await expect.poll(labels).toEqual(["Charlie", "Bravo Bay"]);
  const toast = page.getByRole("region", { name: "Notifications (F8)" }).getByRole("listitem").filter({ hasText: "Alpha removed." });
  await toast.getByRole("button", { name: "Undo" }).click();
  await expect.poll(labels).toEqual(["Charlie", "Alpha", "Bravo Bay"]);

  // Remove for good.
  await section.getByRole("button", { name: "Remove Bravo Bay" }).click();
  await expect.poll(labels).toEqual(["Charlie", "Alpha"]);

  await page.getByRole("link", { name: "Home", exact: true }).click();
  const titles = page.getByTestId("places").getByTestId("place-label");
  await expect(titles).toHaveText(["Charlie", "Alpha"]);
  await gotoHydrated(page, "/");
  await expect(titles).toHaveText(["Charlie", "Alpha"]);
});

test.describe("reordering places", () => {
  // page.route sees the page's own /graphql requests only without the worker in between.
  test.use({ serviceWorkers: "block" });

  test("moves faster than the server answers all count; rows drag with the pointer and their handle takes arrow keys", async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    const account = await accountWithPlace(request, baseURL!, "Alpha");
    for (const [label, lat] of [
      ["Bravo", 48.86],
      ["Charlie", 40.42],
    ] as const) {
      await account.gql(E2ePlacesAddAtDocument, {
        label,
        lat,
      });
    }
    const serverOrder = async () => (await account.gql(E2ePlacesServerOrderDocument)).me!.places.map((place) => place.label);
    await signInBrowser(context, baseURL!, account.token);
    // Every reorder takes the server half a second to answer.
    await page.route("**/graphql", async (route) => {
      const operation = (route.request().postDataJSON() as { operationName?: string } | null)?.operationName;
      if (operation === "ReorderPlaces") await new Promise((resolve) => setTimeout(resolve, 500));
      await route.continue();
    });
    await gotoHydrated(page, "/settings");
    const section = page.getByRole("region", { name: "Places" });
    const labels = () => section.getByRole("textbox").evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));

    // Two clicks within one round trip: the second starts from the first's order.
    await section.getByRole("button", { name: "Move Charlie up" }).click();
    await section.getByRole("button", { name: "Move Charlie up" }).click();
    await expect.poll(labels).toEqual(["Charlie", "Alpha", "Bravo"]);
    await expect(section.getByRole("status")).toHaveText("Charlie is now number 1.");
    await expect.poll(serverOrder).toEqual(["Charlie", "Alpha", "Bravo"]);

    // The handle moves its row with the arrow keys.
    const alphaHandle = section.getByRole("button", { name: "Reorder Alpha: drag, or use the arrow keys" });
    await alphaHandle.focus();
    await page.keyboard.press("ArrowDown");
    await expect.poll(labels).toEqual(["Charlie", "Bravo", "Alpha"]);
    await expect(alphaHandle).toBeFocused();

    // Pointer: drag Alpha's row above the first one.
    const handle = await alphaHandle.boundingBox();
    const first = await section.getByRole("listitem").first().boundingBox();
    await page.mouse.move(handle!.x + handle!.width / 2, handle!.y + handle!.height / 2);
    await page.mouse.down();
    await page.mouse.move(handle!.x + handle!.width / 2, first!.y + 5, { steps: 8 });
    await page.mouse.up();
    await expect.poll(labels).toEqual(["Alpha", "Charlie", "Bravo"]);
    await expect(section.getByRole("status")).toHaveText("Alpha is now number 1.");
    await expect.poll(serverOrder).toEqual(["Alpha", "Charlie", "Bravo"]);

    // A drag released where it started changes nothing.
    const bravoHandle = await section.getByRole("button", { name: "Reorder Bravo: drag, or use the arrow keys" }).boundingBox();
    await page.mouse.move(bravoHandle!.x + 5, bravoHandle!.y + 5);
    await page.mouse.down();
    await page.mouse.move(bravoHandle!.x + 5, bravoHandle!.y + 12, { steps: 3 });
    await page.mouse.up();
    await gotoHydrated(page, "/settings");
    expect(await labels()).toEqual(["Alpha", "Charlie", "Bravo"]);
  });
});
