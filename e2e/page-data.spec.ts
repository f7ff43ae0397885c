import { expect, test } from "./fixtures";
import { accountWithPlace } from "./support/graphql";

type Hour = Record<string, unknown>;
type WeatherData = { current: Record<string, unknown>; hourly: Hour[]; daily: Array<Record<string, unknown>> };

test("a signed-in page's data carries what its cards show, once: 24 hours, no ids of forecast parts, no unread fields, no JSON inside JSON", async ({
  page,
  request,
  baseURL,
}) => {
  await accountWithPlace(request, baseURL!, "Lean Lea", page.context());
  const html = await (await page.request.get("/")).text();
  const json = /<script id="graphql-data"[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1];
  expect(json).toBeTruthy();
  const results = JSON.parse(json!) as Record<string, { data?: unknown }>;
  // Each result's data is JSON itself, not a string of it.
  for (const result of Object.values(results)) expect(typeof result.data).not.toBe("string");

  const weathers: WeatherData[] = [];
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(collect);
    else if (value && typeof value === "object") {
      if ("hourly" in value && "daily" in value) weathers.push(value as WeatherData);
      Object.values(value).forEach(collect);
    }
  };
  collect(Object.values(results).map((result) => result.data));
  expect(weathers).toHaveLength(1);
  const [weather] = weathers as [WeatherData];
  expect(weather.hourly).toHaveLength(24);
  for (const part of [weather.current, ...weather.hourly, ...weather.daily]) expect(part).not.toHaveProperty("id");
  expect(weather.hourly[0]).not.toHaveProperty("precipitation");
  expect(weather.daily[0]).not.toHaveProperty("precipitationSum");
});
