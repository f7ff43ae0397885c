import { startFakePushService } from "../tests/fakes/push-service";
import type { Scenario } from "../tests/fakes/open-meteo";
import { expect, gotoHydrated, test } from "./fixtures";
import {
  E2eSignUpDocument,
  E2eTicksAddPlaceDocument,
  E2eTicksInboxDocument,
  E2eTicksSavePushSubscriptionDocument,
  E2eTicksSaveRuleDocument,
  E2eTicksSettingsDocument,
} from "./support/documents.generated";
import { betweenTicks, nextTickDone, serverWithWeather } from "./support/engine-ticks";
import { apiAs, signInBrowser, uniqueEmail } from "./support/graphql";
import { pushableWorker } from "./support/pwa";

/** The tag of a tick's summary notification (app/api/bot/push.server.ts GROUP_TAG). */
const GROUP_TAG = "weatherbot-messages";

/** Calm in Berlin; a gale, heat and mugginess all day in London and Paris. */
const galeAwayFromBerlin: Scenario = (latitude) =>
  Math.abs(latitude - 52.52) < 0.1
    ? { wind_gusts_10m: 10, temperature_2m: 10, apparent_temperature: 10, precipitation: 0, weather_code: 3 }
    : { wind_gusts_10m: 95, temperature_2m: 31, apparent_temperature: 33, precipitation: 0, weather_code: 3 };

test("one push per user and engine tick: a tick's messages reach the real service worker as one summary notification under its tag, urgent ones on their own", async ({
  page,
  context,
  request,
}) => {
  // A server of its own, and three of its 30-second ticks waited for.
  test.setTimeout(240_000);
  const own = await serverWithWeather(galeAwayFromBerlin, { PUSH_ALLOW_LOOPBACK: "1" });
  const pushService = await startFakePushService();
  try {
    const { baseURL } = own;
    const { signUp } = await apiAs(
      request,
      baseURL,
      null,
    )(E2eSignUpDocument, { email: uniqueEmail("push"), password: "a sturdy passphrase" });
    const gql = apiAs(request, baseURL, signUp.token);
    await gql(E2eTicksSettingsDocument, { input: { pushEnabled: true, quietHoursEnabled: false } });
    await gql(E2eTicksAddPlaceDocument, { label: "Berlin", latitude: 52.52, longitude: 13.41 });

    // The browser's worker takes the pushes; the loopback push service in between reads them as the browser's would
    // (the subscription's keys are its own: headless Chromium has no push service to subscribe with).
    await context.grantPermissions(["notifications"], { origin: baseURL });
    await signInBrowser(context, baseURL, signUp.token);
    await gotoHydrated(page, `${baseURL}/`);
    const worker = await pushableWorker(page, baseURL);
    const device = pushService.subscription("device");
    await gql(E2eTicksSavePushSubscriptionDocument, { endpoint: device.endpoint, p256dh: device.p256dh, auth: device.auth });
    const received = () => pushService.received.map((push) => device.decrypt(push.body));
    let relayed = 0;
    /** Hands what the push service received since the last call to the worker, in order, as the browser's push service would. */
    const relay = async () => {
      for (const payload of received().slice(relayed)) await worker.push(payload);
      relayed = received().length;
      await expect.poll(async () => (await worker.shownTitles()).length, { timeout: 15_000 }).toBe(relayed);
    };

    // Three rules watching every place, read by a tick while only calm Berlin is there: nothing to tell.
    const rule = (name: string, metric: "WIND_GUSTS" | "TEMPERATURE" | "APPARENT_TEMPERATURE", urgent: boolean) =>
      gql(E2eTicksSaveRuleDocument, { input: { name, metric, comparator: "AT_LEAST", threshold: 20, lookaheadHours: 6, urgent } });
    let quiet = await betweenTicks(request, baseURL);
    await rule("Gale", "WIND_GUSTS", true);
    await rule("Warm", "TEMPERATURE", false);
    await rule("Muggy", "APPARENT_TEMPERATURE", false);
    let seen = await nextTickDone(request, baseURL, quiet);
    expect((await gql(E2eTicksInboxDocument)).messages.edges).toEqual([]);
    expect(received()).toEqual([]);

    // London joins: the next tick writes three alerts, and sends two pushes: the urgent one, and one for the other two.
    quiet = await betweenTicks(request, baseURL, seen);
    await gql(E2eTicksAddPlaceDocument, { label: "London", latitude: 51.51, longitude: -0.13 });
    seen = await nextTickDone(request, baseURL, quiet);
    expect((await gql(E2eTicksInboxDocument)).messages.edges.map((message) => message.title).sort()).toEqual([
      "Gale: London",
      "Muggy: London",
      "Warm: London",
    ]);
    await expect.poll(() => received().length).toBe(2);
    await relay();
    const galeInLondon = (await worker.notifications()).find((notification) => notification.title === "Gale: London");
    expect(galeInLondon?.tag).not.toBe(GROUP_TAG);
    const shown = async () =>
      (await worker.notifications())
        .map(({ title, body, tag, data }) => ({ title, body, group: tag === GROUP_TAG, url: (data as { url: string }).url }))
        .sort((a, b) => a.title.localeCompare(b.title));
    expect(await shown()).toEqual([
      {
        title: "2 new messages",
        body: expect.stringMatching(/^(Muggy: London\nWarm: London|Warm: London\nMuggy: London)$/),
        group: true,
        url: "/",
      },
      { title: "Gale: London", body: expect.stringContaining("London"), group: false, url: `/?message=${galeInLondon!.tag}` },
    ]);

    // Paris joins a tick later: again its urgent alert on its own and its two others in one summary, under the same tag.
    quiet = await betweenTicks(request, baseURL, seen);
    await gql(E2eTicksAddPlaceDocument, { label: "Paris", latitude: 48.85, longitude: 2.35 });
    await nextTickDone(request, baseURL, quiet);
    await expect.poll(() => received().length).toBe(4);
    await relay();
    // Headless Chromium lets a shown notification go after a while (London's were gone by the next tick): what the
    // worker shows now is this tick's, one summary and the urgent alert, and nothing stacked beside them.
    expect(
      (await shown()).filter(({ title }) => title !== "Gale: London").map(({ title, body, group }) => ({ title, body, group })),
    ).toEqual([
      { title: "2 new messages", body: expect.stringMatching(/^(Muggy: Paris\nWarm: Paris|Warm: Paris\nMuggy: Paris)$/), group: true },
      { title: "Gale: Paris", body: expect.stringContaining("Paris"), group: false },
    ]);
    expect((await gql(E2eTicksInboxDocument)).messages.edges).toHaveLength(6);
    // Two pushes a tick, each tick's urgent alert and its summary (sent together, in either order), nothing more.
    const kinds = received().map((payload) => payload.kind);
    expect([kinds.slice(0, 2).sort(), kinds.slice(2).sort()]).toEqual([
      ["ALERT", "GROUP"],
      ["ALERT", "GROUP"],
    ]);
  } finally {
    await pushService.close();
    await own.stop();
  }
});
