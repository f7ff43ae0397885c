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

/** A fetch that gives the scripted answers in turn (an Error is thrown, as fetch does when the network fails). */
function scriptedFetch(answers: Array<Response | Error>) {
  const calls: number[] = [];
  const fetch = (async () => {
    calls.push(Date.now());
    const answer = answers.shift()!;
    if (answer instanceof Error) throw answer;
    return answer;
  }) as typeof globalThis.fetch;
  return { calls, fetch };
}

const found = () => Response.json({ results: [{ id: 1, name: "Oslo", latitude: 59.9, longitude: 10.7 }] });

describe("the Open-Meteo client's patience", () => {
  const base = { forecastUrl: "http://f.test", geocodingUrl: "http://g.test", airQualityUrl: "http://a.test", retryDelayMs: 0 };

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

  it("asks again after a network failure, 429 or 5xx, and after nothing else", async () => {
    const recovering = scriptedFetch([new TypeError("fetch failed"), new Response("{}", { status: 429 }), found()]);
    const client = createOpenMeteoClient({ ...base, fetch: recovering.fetch });
    expect(await client.search("Oslo", 1, "en")).toHaveLength(1);
    expect(recovering.calls).toHaveLength(3);

    const refused = scriptedFetch([Response.json({ error: true, reason: "Latitude must be in range" }, { status: 400 }), found()]);
    await expect(createOpenMeteoClient({ ...base, fetch: refused.fetch }).search("Oslo", 1, "en")).rejects.toThrow(
      "refused the request: Latitude must be in range",
    );
    expect(refused.calls).toHaveLength(1);

    const garbage = scriptedFetch([new Response("<html>proxy error</html>", { status: 200 }), found()]);
    await expect(createOpenMeteoClient({ ...base, fetch: garbage.fetch }).search("Oslo", 1, "en")).rejects.toThrow("not JSON");
    expect(garbage.calls).toHaveLength(1);
  });

  it("waits as long as Retry-After asks before the next try", async () => {
    const limited = scriptedFetch([new Response("{}", { status: 503, headers: { "retry-after": "1" } }), found()]);
    await createOpenMeteoClient({ ...base, fetch: limited.fetch }).search("Oslo", 1, "en");
    expect(limited.calls[1]! - limited.calls[0]!).toBeGreaterThanOrEqual(1000 - 50);
  });
});
