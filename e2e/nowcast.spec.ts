import { expect, gotoHydrated, test } from "./fixtures";
import { accountWithPlace } from "./support/graphql";
import { E2eAddPlaceDocument } from "./support/documents.generated";

const LINE = /^(No rain for the next 2 hours|Rain for the next 2 hours|Rain (starting|stopping) in about \d+ min)$/;

test("the open place says what the next 2 hours hold; a whole card charts them with labelled axes", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  const account = await accountWithPlace(request, baseURL!, "Home", context);
  for (const label of ["Studio", "Cabin", "Parents"]) await account.gql(E2eAddPlaceDocument, { label });
  await gotoHydrated(page, "/");
  // One place open at a time (the switcher): its line.
  await expect(page.getByTestId("nowcast")).toHaveCount(1);
  await expect(page.getByTestId("nowcast")).toHaveText(LINE);
  // The fake weather service rains here in some hours only: a dry 2 hours have their line and no chart.
  const home = page.getByRole("article", { name: "Home" });
  if ((await home.getByTestId("nowcast").textContent()) === "No rain for the next 2 hours") {
    await expect(home.getByTestId("nowcast-chart")).toHaveCount(0);
  } else {
    const chart = home.getByRole("img", { name: /^Precipitation over the next 2 hours, in quarter hours, up to [\d.]+ in$/ });
    await expect(chart.locator("rect")).toHaveCount(8);
    for (const label of ["Now", "+1 h", "+2 h"]) await expect(chart.locator("text", { hasText: label })).toHaveCount(1);
  }
});

test("in German, the line is German", async ({ page, context, request, baseURL }) => {
  await accountWithPlace(request, baseURL!, "Zuhause", context);
  await context.addCookies([{ name: "i18n_redirected", value: "de-DE", url: baseURL! }]);
  await gotoHydrated(page, "/");
  await expect(page.getByTestId("nowcast")).toHaveText(
    /^(Kein Regen in den nächsten 2 Stunden|Regen in den nächsten 2 Stunden|Regen beginnt in etwa \d+ Min\.|Regen hört in etwa \d+ Min\. auf)$/,
  );
});
