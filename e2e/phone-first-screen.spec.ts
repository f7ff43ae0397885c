import { expect, gotoHydrated, test } from "./fixtures";
import { accountWithPlace } from "./support/graphql";
import { E2eAddPlaceDocument } from "./support/documents.generated";

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

test("on a phone, a signed-in person's first screen shows the weather, and the inbox is one tap away", async ({
  page,
  context,
  request,
  baseURL,
}, testInfo) => {
  const account = await accountWithPlace(request, baseURL!, "Harbour Office", context);
  for (const label of ["Studio", "Cabin", "Parents"]) await account.gql(E2eAddPlaceDocument, { label });
  await account.sendBriefing();
  await gotoHydrated(page, "/");
  await page.screenshot({ path: testInfo.outputPath("phone-first-screen.png") });

  // The intro is for visitors; the first card, with its current temperature, is on the first screen.
  await expect(page.getByText("Weatherbot watches their forecasts", { exact: false })).toHaveCount(0);
  const firstCard = page.getByTestId("forecast-card").first();
  await expect(firstCard).toHaveAttribute("aria-label", "Harbour Office");
  const temperature = (await firstCard.getByTestId("current-temperature").boundingBox())!;
  expect(temperature.y + temperature.height).toBeLessThanOrEqual(844);

  // The unread badge leads to the inbox below the places.
  const inboxHeading = page.getByRole("heading", { name: "Inbox", level: 2 });
  await expect(inboxHeading).not.toBeInViewport();
  await page.getByTestId("unread-badge").tap();
  await expect(page).toHaveURL(/#inbox-heading$/);
  await expect(inboxHeading).toBeInViewport();
});
