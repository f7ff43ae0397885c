import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SavePushSubscriptionDocument } from "~/lib/graphql/later-documents.generated";
import { createServerMetrics, type ServerMetrics } from "~/server/metrics.server";
import { timeOrderedLowerBound } from "~/shared/live-cursor";
import { startFakePushService } from "../fakes/push-service";
import { codes, startTestApi, type TestApi } from "../support/api-server";
import {
  TestBriefingAddPlaceDocument,
  TestBriefingSearchDocument,
  TestPlacesWeatherDocument,
  TestPushSettingsDocument,
  TestSaveBriefingDocument,
  TestSendBriefingNowDocument,
} from "../support/documents.generated";
import { parsePrometheusText, sampleSum, type Exposition } from "../support/prometheus-text";
import { MESSAGE_IDS, wsClient } from "../support/subscriber";

/**
 * The API's metrics as /metrics exposes them: the server's prom-client registry handed to the
 * real API, real operations over HTTP and WebSocket, a real engine tick, then the registry's
 * text parsed as a scraper reads it.
 */
let t: TestApi;
let metrics: ServerMetrics;
let pushService: Awaited<ReturnType<typeof startFakePushService>>;
beforeAll(async () => {
  metrics = createServerMetrics();
  pushService = await startFakePushService();
  t = await startTestApi({ metrics: metrics.api });
});
afterAll(async () => {
  await t.close();
  await pushService.close();
});

const scrape = async (): Promise<Exposition> => parsePrometheusText(await metrics.registry.metrics());

describe("the API's metrics", () => {
  it("declare every family with its type", async () => {
    const { types } = await scrape();
    expect(Object.fromEntries([...types].filter(([name]) => name.startsWith("weatherbot_")))).toEqual({
      weatherbot_http_request_duration_seconds: "histogram",
      weatherbot_graphql_operation_duration_seconds: "histogram",
      weatherbot_graphql_operation_errors_total: "counter",
      weatherbot_weather_upstream_request_duration_seconds: "histogram",
      weatherbot_cache_lookups_total: "counter",
      weatherbot_engine_tick_duration_seconds: "histogram",
      weatherbot_messages_written_total: "counter",
      weatherbot_pushes_sent_total: "counter",
      weatherbot_graphql_subscriptions_open: "gauge",
    });
    // prom-client's process metrics come along.
    expect(types.get("process_resident_memory_bytes")).toBe("gauge");
    expect(types.get("nodejs_eventloop_lag_seconds")).toBe("gauge");
  });

  it("move with operations, upstream calls, cache lookups, messages, pushes, engine ticks and subscriptions", async () => {
    const before = await scrape();
    const token = await t.signUp();
    await t.gql(TestPushSettingsDocument, { input: { pushEnabled: true, timeZone: "UTC", quietHoursEnabled: false } }, { token });
    const device = pushService.subscription("metrics-device");
    await t.gql(SavePushSubscriptionDocument, { endpoint: device.endpoint, p256dh: device.p256dh, auth: device.auth }, { token });
    const found = await t.gql(TestBriefingSearchDocument, { query: "berlin" }, { token });
    const place = await t.gql(TestBriefingAddPlaceDocument, { locationId: found.data!.searchLocations[0]!.id, label: "Home" }, { token });
    // The first asks Open-Meteo (a forecast cache miss); the second is the result cache's answer.
    expect((await t.gql(TestPlacesWeatherDocument, {}, { token })).data!.places).toHaveLength(1);
    expect((await t.gql(TestPlacesWeatherDocument, {}, { token })).data!.places).toHaveLength(1);
    // Signed out, the same query is refused: an error counted under its operation and code.
    expect(codes(await t.gql(TestPlacesWeatherDocument))).toEqual(["UNAUTHENTICATED"]);
    const saved = await t.gql(
      TestSaveBriefingDocument,
      { input: { name: "Now", placeIds: [place.data!.addPlace.id], period: "TODAY", time: "07:00", days: ["MON"] } },
      { token },
    );
    expect((await t.gql(TestSendBriefingNowDocument, { id: saved.data!.saveBriefing.id }, { token })).data!.sendBriefingNow.kind).toBe(
      "BRIEFING",
    );
    await vi.waitFor(() => expect(pushService.received.length).toBe(1));
    await t.api.engine.pass(Math.floor(Date.now() / 30_000));

    const after = await scrape();
    const moved = (name: string, labels: Record<string, string> = {}) => sampleSum(after, name, labels) - sampleSum(before, name, labels);
    const operations = "weatherbot_graphql_operation_duration_seconds_count";
    expect(moved(operations, { operation: "SignUp", type: "mutation" })).toBe(1);
    expect(moved(operations, { operation: "TestPlacesWeather", type: "query" })).toBe(3);
    expect(moved("weatherbot_graphql_operation_errors_total", { operation: "TestPlacesWeather", code: "UNAUTHENTICATED" })).toBe(1);
    expect(moved("weatherbot_graphql_operation_errors_total", { operation: "SignUp" })).toBe(0);
    expect(moved("weatherbot_weather_upstream_request_duration_seconds_count", { endpoint: "search", outcome: "ok" })).toBe(1);
    expect(
      moved("weatherbot_weather_upstream_request_duration_seconds_count", { endpoint: "forecast", outcome: "ok" }),
    ).toBeGreaterThanOrEqual(1);
    expect(moved("weatherbot_cache_lookups_total", { cache: "forecast", result: "miss" })).toBeGreaterThanOrEqual(1);
    expect(moved("weatherbot_cache_lookups_total", { cache: "forecast", result: "hit" })).toBeGreaterThanOrEqual(1);
    expect(moved("weatherbot_cache_lookups_total", { cache: "result", result: "hit" })).toBe(1);
    expect(moved("weatherbot_cache_lookups_total", { cache: "result", result: "miss" })).toBeGreaterThanOrEqual(1);
    expect(moved("weatherbot_messages_written_total", { kind: "BRIEFING" })).toBe(1);
    expect(moved("weatherbot_pushes_sent_total", { outcome: "delivered" })).toBe(1);
    expect(moved("weatherbot_engine_tick_duration_seconds_count", { outcome: "ok" })).toBe(1);
    expect(sampleSum(after, "weatherbot_engine_tick_duration_seconds_sum")).toBeGreaterThan(0);

    // A subscription open is counted while it lasts.
    const client = wsClient(t.url, token);
    const events = client.iterate({ query: MESSAGE_IDS, variables: { after: timeOrderedLowerBound(Date.now()) } });
    const next = events.next();
    try {
      await vi.waitFor(async () => expect(sampleSum(await scrape(), "weatherbot_graphql_subscriptions_open")).toBe(1));
    } finally {
      await events.return?.();
      await client.dispose();
      void next.catch(() => {});
    }
    await vi.waitFor(async () => expect(sampleSum(await scrape(), "weatherbot_graphql_subscriptions_open")).toBe(0));
  });
});
