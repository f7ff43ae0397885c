import { describe, expect, it } from "vitest";
import { AIR_QUALITY_TIMEOUT_MS, createOpenMeteoClient } from "~/api/weather/open-meteo.server";

/** A fetch that answers 503 and notes the path of each call. */
function failingFetch() {
  const calls: string[] = [];
  const fetch = (async (input: URL | RequestInfo) => {
    calls.push(new URL(String(input)).pathname);
    return new Response("{}", { status: 503 });
  }) as typeof globalThis.fetch;
  return { calls, fetch };
}

describe("the Open-Meteo client's patience", () => {
  const base = { forecastUrl: "http://f.test", geocodingUrl: "http://g.test", airQualityUrl: "http://a.test", sleep: async () => {} };

  it("tries a forecast three times, the air quality once: a page waits for every card's line", async () => {
    const upstream = failingFetch();
    const client = createOpenMeteoClient({ ...base, fetch: upstream.fetch });
    await expect(client.forecasts([{ latitude: 1, longitude: 2 }])).rejects.toThrow("503");
    await expect(client.airQuality([{ latitude: 1, longitude: 2 }])).rejects.toThrow("503");
    expect(upstream.calls).toEqual(["/v1/forecast", "/v1/forecast", "/v1/forecast", "/v1/air-quality"]);
  });

  // With the forecasts' 10 s (and three tries) this outlasts the test's 5 s limit.
  it("gives an air-quality call a few seconds, not the forecasts' ten", async () => {
    const started = Date.now();
    const hanging = (async (_input: URL | RequestInfo, init?: RequestInit) =>
      new Promise<Response>((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason)))) as typeof fetch;
    const client = createOpenMeteoClient({ ...base, fetch: hanging });
    await expect(client.airQuality([{ latitude: 1, longitude: 2 }])).rejects.toThrow("could not be reached");
    expect(Date.now() - started).toBeGreaterThanOrEqual(AIR_QUALITY_TIMEOUT_MS - 50);
  });
});
