import { expect, gotoHydrated, test } from "./fixtures";
import { accountWithPlace } from "./support/graphql";

test("a card shows humidity, dew point, pressure, visibility, where the wind comes from, and today's sun in the place's time", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  // The place is in Berlin: the weather service's sun rises there at 7:00 and sets at 17:00, local time.
  await accountWithPlace(request, baseURL!, "Home", context);
  await gotoHydrated(page, "/");
  const card = page.getByRole("article", { name: "Home" });
  const figure = (label: string) =>
    card
      .locator("dl > div")
      .filter({ has: page.getByText(label, { exact: true }) })
      .locator("dd");
  // A US English browser: °F, mph and inches, so inHg and miles.
  await expect(figure("Humidity")).toHaveText(/^\d{2}%$/);
  await expect(figure("Dew point")).toHaveText(/^-?\d+ °F$/);
  await expect(figure("Pressure")).toHaveText(/^\d{2}\.\d{2} inHg$/);
  await expect(figure("Visibility")).toHaveText(/^\d+(\.\d)? mi$/);
  await expect(figure("Wind")).toHaveText(/^\d+ mph (N|NE|E|SE|S|SW|W|NW), gusts \d+ mph$/);
  await expect(card.getByTestId("sun")).toHaveText("Sunrise 7:00 AMSunset 5:00 PM10 hr of daylight");
});
