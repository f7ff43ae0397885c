import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "~/api/db/database.server";
import type { MessageContent } from "~/shared/message-content";
import { deriveCap, nwsFeatures, startFakeOfficialWarnings, warningsFixture, type FakeOfficialWarnings } from "../fakes/official-warnings";
import { startFakeOpenMeteo, type FakeOpenMeteo } from "../fakes/open-meteo";
import { testApis, type TestApi } from "../support/api-server";
import { startEngineInstance, type EngineInstance } from "../support/engine-fixture";

/*
 * Official warnings told in the inbox by the engine (issue 32, item 4): the real API on SQLite and
 * PostgreSQL, the warnings fake speaking the NWS's and MeteoAlarm's formats with the real
 * documents of tests/fixtures/warnings. Each warning is told once when issued, once per update and
 * once when it is over, never twice: over repeated passes, a restart and two instances.
 */

const api = testApis();
let warnings: FakeOfficialWarnings;
let weather: FakeOpenMeteo;

beforeAll(async () => {
  warnings = await startFakeOfficialWarnings({ slowMs: 200 });
  weather = await startFakeOpenMeteo();
});
afterEach(() => warnings.reset());
afterAll(async () => {
  await warnings.close();
  await weather.close();
});

// The NWS's Tornado Watch 641 (NWS Mobile AL, 25 Nov 2025, CST = UTC−6): issued 12:06, updated 16:20, cancelled 16:54; it ends 18:00.
const nws = nwsFeatures("nws/mobile-al-tornado-watch.json");
const byType = (type: string) => [...nws.values()].find((feature) => (feature.properties as { messageType: string }).messageType === type)!;
const WATCH = { alert: byType("Alert"), update: byType("Update"), cancel: byType("Cancel") };
const WATCH_ID = `nws:${(WATCH.alert.properties as { id: string }).id}`;
const NWS_TIMES = {
  issued: "2025-11-25T18:30:00Z",
  updated: "2025-11-25T22:30:00Z",
  cancelled: "2025-11-25T23:00:00Z",
  ended: "2025-11-26T01:00:00Z",
};

// Météo-France's avalanche warning for the Alps: the real Update, its Alert and a Cancel derived from it (the samples
// lack them), in force until 23:59 Paris time on 7 Dec 2022 (the real Update expires as it is sent: an "all clear").
const FR_ALERT_ID = "2.49.0.0.250.0.FR.20221206160108.315028";
const FR_UPDATE_ID = "2.49.0.0.250.0.FR.20221207060126.964028";
const FR_CANCEL_ID = "2.49.0.0.250.0.FR.20221207120000.000001";
const inForce = (xml: string) =>
  xml
    .replace(/<onset>[^<]*<\/onset>/g, "<onset>2022-12-07T06:00:00+01:00</onset>")
    .replace(/<expires>[^<]*<\/expires>/g, "<expires>2022-12-07T23:59:00+01:00</expires>");
const frUpdate = inForce(warningsFixture("meteoalarm/france-avalanche-update.xml"));
const AVALANCHE = {
  alert: deriveCap(frUpdate, { identifier: FR_ALERT_ID, sent: "2022-12-06T16:01:08+01:00", msgType: "Alert", references: null }),
  update: frUpdate,
  // As MeteoAlarm's senders write them: only the message replaced is referenced.
  cancel: deriveCap(frUpdate, {
    identifier: FR_CANCEL_ID,
    sent: "2022-12-07T12:00:00+01:00",
    msgType: "Cancel",
    references: `vigilance@meteo.fr,${FR_UPDATE_ID},2022-12-07T06:01:26+01:00`,
  }),
};
const FR_TIMES = { issued: "2022-12-06T16:00:00Z", updated: "2022-12-07T06:00:00Z", cancelled: "2022-12-07T12:00:00Z" };

type PlaceSpec = {
  label: string;
  name: string;
  admin1?: string | null;
  country: string | null;
  latitude: number;
  longitude: number;
  zone: string;
};
const MOBILE: PlaceSpec = {
  label: "Mobile",
  name: "Mobile",
  admin1: "Alabama",
  country: "US",
  latitude: 30.69,
  longitude: -88.04,
  zone: "America/Chicago",
};
const OFFICE: PlaceSpec = {
  label: "Office",
  name: "Grove Hill",
  admin1: "Alabama",
  country: "US",
  latitude: 31.71,
  longitude: -87.78,
  zone: "America/Chicago",
};
const ELSEWHERE_US: PlaceSpec = {
  label: "Denver",
  name: "Denver",
  admin1: "Colorado",
  country: "US",
  latitude: 39.74,
  longitude: -104.99,
  zone: "America/Denver",
};
const ISERE: PlaceSpec = {
  label: "Chalet",
  name: "Isère",
  admin1: "Auvergne-Rhône-Alpes",
  country: "FR",
  latitude: 45.19,
  longitude: 5.72,
  zone: "Europe/Paris",
};
const PARIS: PlaceSpec = {
  label: "Paris",
  name: "Paris",
  admin1: "Île-de-France",
  country: "FR",
  latitude: 48.85,
  longitude: 2.35,
  zone: "Europe/Paris",
};
const SYDNEY: PlaceSpec = {
  label: "Sydney",
  name: "Sydney",
  admin1: "New South Wales",
  country: "AU",
  latitude: -33.87,
  longitude: 151.21,
  zone: "Australia/Sydney",
};
const NOWHERE: PlaceSpec = { label: "At sea", name: "40.00, -30.00", country: null, latitude: 40, longitude: -30, zone: "UTC" };
const point = (place: PlaceSpec) => `${place.latitude},${place.longitude}`;

/** A clock the tests move, and an API on it with the shared fakes. */
async function start(at: string, options: { dataDir?: string; databaseUrl?: string } = {}) {
  const clock = { at: new Date(at), set: (iso: string) => (clock.at = new Date(iso)) };
  const t = await api({ now: () => clock.at, warnings, fake: weather, ...options });
  return { t, clock };
}

/** Each user's session token, by user id. */
const tokens = new Map<string, string>();

/** A user with these places (written straight to the database: a searched place would do the same), in a language. */
async function userWith(t: TestApi, places: PlaceSpec[], language = "EN_US") {
  const token = await t.signUp();
  const me = await t.gql<{ me: { id: string } }>("{ me { id } }", {}, { token });
  const userId = me.data!.me.id;
  tokens.set(userId, token);
  const { db } = t.api.services;
  await db.updateTable("settings").set({ language, time_zone: "UTC" }).where("user_id", "=", userId).execute();
  for (const [position, place] of places.entries()) {
    await db
      .insertInto("places")
      .values({
        id: randomUUID(),
        user_id: userId,
        label: place.label,
        name: place.name,
        admin1: place.admin1 ?? null,
        country_code: place.country,
        latitude: place.latitude,
        longitude: place.longitude,
        time_zone: place.zone,
        position,
        created_at: "2020-01-01T00:00:00.000Z",
      })
      .execute();
  }
  return userId;
}

/** The WARNING messages written, oldest first, with what they say. */
async function warningMessages(db: Db, userId?: string) {
  const rows = await db
    .selectFrom("messages")
    .select(["user_id", "title", "body", "urgent", "dedupe_key", "content"])
    .where("kind", "=", "WARNING")
    .$if(userId !== undefined, (query) => query.where("user_id", "=", userId!))
    .orderBy("id")
    .execute();
  return rows.map((row) => {
    const content = JSON.parse(row.content!) as MessageContent;
    return { ...row, change: content.warning!.change, places: content.warning!.places.map((place) => place.label), content };
  });
}

let tick = 0;
/** Engine passes as the scheduler runs them (tests are given tick numbers of their own). */
async function passes(t: TestApi, count = 1) {
  for (let i = 0; i < count; i++) await t.api.engine.pass(++tick);
}

describe("official warnings in the inbox", () => {
  it("NWS: a watch issued, updated and cancelled is told once each, to every user it concerns, over repeated passes and a restart", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "weatherbot-warnings-"));
    try {
      const { t, clock } = await start(NWS_TIMES.issued, { dataDir });
      const near = await userWith(t, [MOBILE, ELSEWHERE_US, OFFICE]);
      const german = await userWith(t, [OFFICE], "DE_DE");
      const far = await userWith(t, [ELSEWHERE_US]);
      warnings.nws.setActive(point(MOBILE), [WATCH.alert]);
      warnings.nws.setActive(point(OFFICE), [WATCH.alert]);
      await passes(t, 3);

      const { db } = t.api.services;
      let told = await warningMessages(db, near);
      // One message for the warning, naming both of the user's places in it, in their order.
      expect(told.map(({ change, places, title, urgent }) => ({ change, places, title, urgent }))).toEqual([
        { change: "ISSUED", places: ["Mobile", "Office"], title: "Severe weather warning: Tornado Watch — Mobile and Office", urgent: 1 },
      ]);
      expect(told[0]!.body.split("\n")[0]).toBe(
        "US National Weather Service: Tornado Watch for Mobile and Office until Tue 6:00 PM GMT-6 (extreme, future).",
      );
      expect(told[0]!.dedupe_key).toBe(`warning:${near}:${WATCH_ID}:${(WATCH.alert.properties as { id: string }).id}`);
      expect((await warningMessages(db, german)).map((message) => message.title)).toEqual(["Unwetterwarnung: Tornado Watch — Office"]);
      expect(await warningMessages(db, far)).toEqual([]);
      // Each grid point was asked once, whatever the number of users and passes (the answer is shared for 5 minutes).
      expect(warnings.nws.requests.map((request) => request.point).sort()).toEqual(
        [point(OFFICE), point(MOBILE), point(ELSEWHERE_US)].sort(),
      );

      // A restart: a new API on the same database, knowing nothing of what the old one fetched.
      const restarted = await start(NWS_TIMES.issued, { dataDir, databaseUrl: t.databaseUrl });
      await passes(restarted.t, 2);
      expect(await warningMessages(db)).toHaveLength(2);

      // The service updates it (a new CAP message: fewer counties, the same watch).
      for (const each of [clock, restarted.clock]) each.set(NWS_TIMES.updated);
      warnings.nws.setActive(point(MOBILE), [WATCH.update]);
      warnings.nws.setActive(point(OFFICE), [WATCH.update]);
      await passes(restarted.t, 2);
      await passes(t, 1);
      told = await warningMessages(db, near);
      expect(told.map(({ change, title }) => ({ change, title }))).toEqual([
        { change: "ISSUED", title: "Severe weather warning: Tornado Watch — Mobile and Office" },
        { change: "UPDATED", title: "Warning updated: Tornado Watch — Mobile and Office" },
      ]);

      // Cancelled: told once, not urgent; then the cancellation expires and nothing more is said.
      for (const each of [clock, restarted.clock]) each.set(NWS_TIMES.cancelled);
      warnings.nws.setActive(point(MOBILE), [WATCH.cancel]);
      warnings.nws.setActive(point(OFFICE), [WATCH.cancel]);
      await passes(t, 2);
      await passes(restarted.t, 1);
      for (const each of [clock, restarted.clock]) each.set(NWS_TIMES.ended);
      await passes(restarted.t, 1);
      await passes(t, 1);
      told = await warningMessages(db, near);
      expect(told.map(({ change, title, urgent }) => ({ change, title, urgent }))).toEqual([
        { change: "ISSUED", title: "Severe weather warning: Tornado Watch — Mobile and Office", urgent: 1 },
        { change: "UPDATED", title: "Warning updated: Tornado Watch — Mobile and Office", urgent: 1 },
        { change: "CLEARED", title: "Warning over: Tornado Watch — Mobile and Office", urgent: 0 },
      ]);
      expect((await warningMessages(db, german)).map((message) => message.change)).toEqual(["ISSUED", "UPDATED", "CLEARED"]);
      expect(new Set((await warningMessages(db)).map((message) => message.dedupe_key)).size).toBe(6);

      // The inbox serves them with their content, formatted for the reader as they are now.
      const inbox = await t.gql<{ messages: { edges: Array<{ kind: string; title: string; urgent: boolean; content: MessageContent }> } }>(
        `{ messages(first: 5) { edges { kind title urgent content { version kind place { label } warning {
            warningId change service severity urgency area sent onset expires web
            texts { language event headline description instruction } places { id label timeZone } } } } } }`,
        {},
        { token: tokens.get(german)! },
      );
      expect(inbox.errors).toBeUndefined();
      const [cleared, , issued] = inbox.data!.messages.edges;
      expect(cleared).toMatchObject({ kind: "WARNING", title: "Warnung aufgehoben: Tornado Watch — Office", urgent: false });
      expect(issued!.content).toMatchObject({
        version: 4,
        kind: "WARNING",
        place: { label: "Office" },
        warning: {
          warningId: WATCH_ID,
          change: "ISSUED",
          service: "US National Weather Service",
          severity: "EXTREME",
          urgency: "FUTURE",
          expires: "2025-11-26T00:00:00.000Z",
          texts: [{ language: "en-US", event: "Tornado Watch" }],
          places: [{ label: "Office", timeZone: "America/Chicago" }],
        },
      });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("MeteoAlarm: issued, updated and cancelled once each, in the reader's language; a restart that forgot the chain still ends it", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "weatherbot-warnings-"));
    try {
      const { t } = await start(FR_TIMES.issued, { dataDir });
      const french = await userWith(t, [ISERE], "FR_FR");
      const english = await userWith(t, [PARIS, ISERE]);
      // Only named areas are announced: a warning elsewhere in France is the card's, not a message.
      const parisOnly = await userWith(t, [PARIS]);
      warnings.meteoAlarm.setDocuments("france", [AVALANCHE.alert]);
      await passes(t, 2);
      const { db } = t.api.services;
      expect((await warningMessages(db, french)).map(({ change, title }) => ({ change, title }))).toEqual([
        { change: "ISSUED", title: "Vigilance météo : Vigilance jaune avalanches — Chalet" },
      ]);
      expect((await warningMessages(db, english)).map(({ change, places, title, urgent }) => ({ change, places, title, urgent }))).toEqual([
        { change: "ISSUED", places: ["Chalet"], title: "Weather warning: Moderate avalanches warning — Chalet", urgent: 0 },
      ]);
      const [issued] = await warningMessages(db, english);
      expect(issued!.content.warning).toMatchObject({ service: "MeteoAlarm / METEO-FRANCE", severity: "MODERATE", urgency: "FUTURE" });
      expect(issued!.content.warning!.texts.map((text) => text.language)).toEqual(["fr-FR", "en-GB"]);
      expect(await warningMessages(db, parisOnly)).toEqual([]);

      // The update, read by a restarted API (its memory of the chain is new: the update names its alert).
      const second = await start(FR_TIMES.updated, { dataDir, databaseUrl: t.databaseUrl });
      warnings.meteoAlarm.setDocuments("france", [AVALANCHE.update]);
      await passes(second.t, 2);
      // The cancellation names only the update, and a third API has never seen the alert: the user's state still knows it.
      const third = await start(FR_TIMES.cancelled, { dataDir, databaseUrl: t.databaseUrl });
      warnings.meteoAlarm.setDocuments("france", [AVALANCHE.cancel]);
      await passes(third.t, 2);
      for (const user of [french, english]) {
        const told = await warningMessages(db, user);
        expect(told.map((message) => message.change)).toEqual(["ISSUED", "UPDATED", "CLEARED"]);
        // One warning throughout: its id is the alert's.
        expect(new Set(told.map((message) => message.content.warning!.warningId))).toEqual(new Set([`meteoalarm:${FR_ALERT_ID}`]));
      }
      expect((await warningMessages(db, french)).at(-1)!.title).toBe("Fin de vigilance : Vigilance jaune avalanches — Chalet");
      expect(await warningMessages(db, parisOnly)).toEqual([]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("two API processes in one database, passing at once, tell each warning once", async () => {
    const { t, clock } = await start(NWS_TIMES.issued);
    const other = await start(NWS_TIMES.issued, { dataDir: t.dataDir, databaseUrl: t.databaseUrl });
    const users: string[] = [];
    for (let i = 0; i < 5; i++) users.push(await userWith(t, [MOBILE, ISERE]));
    warnings.nws.setActive(point(MOBILE), [WATCH.alert]);
    // Not through the shards (one instance holds a shard at a time): both decide for every user at once.
    const race = () =>
      Promise.all([
        t.api.services.warningAlerts.runAll(),
        other.t.api.services.warningAlerts.runAll(),
        t.api.services.warningAlerts.runAll(),
      ]);
    await race();
    for (const each of [clock, other.clock]) each.set(NWS_TIMES.updated);
    warnings.nws.setActive(point(MOBILE), [WATCH.update]);
    await race();
    for (const each of [clock, other.clock]) each.set(NWS_TIMES.ended);
    await race();
    const told = await warningMessages(t.api.services.db);
    expect(told).toHaveLength(users.length * 3);
    for (const user of users)
      expect(told.filter((message) => message.user_id === user).map((message) => message.change)).toEqual(["ISSUED", "UPDATED", "CLEARED"]);
  });

  it("decides only users woken: an unchanged refresh of the areas decides nobody, a changed one exactly those at the places it changed", async () => {
    const { t, clock } = await start(NWS_TIMES.issued);
    const atMobile = await userWith(t, [MOBILE]);
    const atBoth = await userWith(t, [ISERE, MOBILE]);
    const atOffice = await userWith(t, [OFFICE]);
    const inFrance = await userWith(t, [ISERE]);
    const uncovered = await userWith(t, [SYDNEY]);
    warnings.nws.setActive(point(MOBILE), [WATCH.alert]);
    warnings.nws.setActive(point(OFFICE), [WATCH.alert]);
    warnings.meteoAlarm.setDocuments("france", []);
    const run = () => t.api.services.warningAlerts.runAll();
    const sorted = (ids: string[]) => [...ids].sort();
    // New users are decided once, whatever their places.
    expect(sorted((await run()).decided)).toEqual(sorted([atMobile, atBoth, atOffice, inFrance, uncovered]));
    expect((await run()).decided).toEqual([]);

    // The areas' answers expire and are fetched again, unchanged: nobody is decided.
    const requests = () => warnings.nws.requests.length + warnings.meteoAlarm.feedRequests.length;
    const before = requests();
    clock.set(new Date(Date.parse(NWS_TIMES.issued) + 6 * 60_000).toISOString());
    expect(await run()).toEqual({ messages: 0, decided: [] });
    expect(requests() - before).toBe(3);

    // Mobile's watch is updated: only the users with a place there are decided, and told.
    warnings.nws.setActive(point(MOBILE), [WATCH.update]);
    clock.set(new Date(Date.parse(NWS_TIMES.issued) + 12 * 60_000).toISOString());
    const changed = await run();
    expect(sorted(changed.decided)).toEqual(sorted([atMobile, atBoth]));
    expect(changed.messages).toBe(2);
    expect((await warningMessages(t.api.services.db, atBoth)).map((message) => message.change)).toEqual(["ISSUED", "UPDATED"]);
    expect((await run()).decided).toEqual([]);
  });

  it("a service down clears nothing and is logged once", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { t, clock } = await start(NWS_TIMES.issued);
    const user = await userWith(t, [MOBILE]);
    warnings.nws.setActive(point(MOBILE), [WATCH.alert]);
    await passes(t);
    const { db } = t.api.services;
    expect((await warningMessages(db, user)).map((message) => message.change)).toEqual(["ISSUED"]);

    // The NWS goes down; the watch is gone from what it would answer. Its last answer is served, stale, then nothing: no clearing.
    warnings.nws.setActive(point(MOBILE), []);
    warnings.fail("nws", 503);
    const later = (minutes: number) => clock.set(new Date(Date.parse(NWS_TIMES.issued) + minutes * 60_000).toISOString());
    for (const minutes of [6, 8, 20, 40, 60]) {
      later(minutes);
      await passes(t);
    }
    expect((await warningMessages(db, user)).map((message) => message.change)).toEqual(["ISSUED"]);
    const outages = () => warn.mock.calls.filter((call) => String(call[0]).includes("US National Weather Service"));
    expect(outages()).toHaveLength(1);
    // Back: its answer says the watch is over.
    warnings.recover("nws");
    later(70);
    await passes(t, 2);
    expect((await warningMessages(db, user)).map((message) => message.change)).toEqual(["ISSUED", "CLEARED"]);
    expect(outages()).toHaveLength(1);
  });

  it("an incomplete MeteoAlarm answer (an update it could not read) clears nothing", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const { t, clock } = await start(FR_TIMES.issued);
    const user = await userWith(t, [ISERE]);
    const { db } = t.api.services;
    warnings.meteoAlarm.setDocuments("france", [AVALANCHE.alert]);
    await passes(t);
    expect((await warningMessages(db, user)).map((message) => message.change)).toEqual(["ISSUED"]);
    // The feed lists the update (the alert is gone from it), whose document cannot be read: the alert may have changed, not ended.
    clock.set(FR_TIMES.updated);
    warnings.meteoAlarm.setDocuments("france", [AVALANCHE.update]);
    warnings.meteoAlarm.setDocumentAt(warnings.meteoAlarm.documentPath("france", FR_UPDATE_ID), "<alert><identifier>");
    await passes(t, 2);
    const place = { latitude: ISERE.latitude, longitude: ISERE.longitude, countryCode: "FR", name: ISERE.name };
    expect(await t.api.services.warnings.warningsFor(place, "en-US")).toMatchObject({
      status: "ok",
      warnings: [],
      incomplete: [FR_UPDATE_ID],
    });
    expect((await warningMessages(db, user)).map((message) => message.change)).toEqual(["ISSUED"]);
    // Readable again: the update is told.
    warnings.meteoAlarm.setDocuments("france", [AVALANCHE.update]);
    clock.set(new Date(Date.parse(FR_TIMES.updated) + 10 * 60_000).toISOString());
    await passes(t);
    expect((await warningMessages(db, user)).map((message) => message.change)).toEqual(["ISSUED", "UPDATED"]);
  });

  it("a place outside every covered area gets no message, asks no service and logs nothing", async () => {
    const warn = vi.spyOn(console, "warn");
    const { t } = await start(NWS_TIMES.issued);
    const user = await userWith(t, [SYDNEY, NOWHERE]);
    warnings.nws.setActive("*", [WATCH.alert]);
    await passes(t, 2);
    expect(await warningMessages(t.api.services.db, user)).toEqual([]);
    expect([warnings.nws.requests.length, warnings.meteoAlarm.feedRequests.length]).toEqual([0, 0]);
    expect(warn).not.toHaveBeenCalled();
  });

  it("a hostile feed never stops the pass nor reaches another user's inbox", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { t, clock } = await start(NWS_TIMES.issued);
    const calm = await userWith(t, [MOBILE]);
    const hostile = await userWith(t, [OFFICE]);
    const french = await userWith(t, [ISERE]);
    const bombed = await userWith(t, [ELSEWHERE_US]);
    warnings.nws.setActive(point(MOBILE), [WATCH.alert]);
    // A "warning" at Office made to hurt: markup, a megabyte of headline, a huge identifier, a wrong severity.
    const huge = "A".repeat(1_000_000);
    const properties = WATCH.alert.properties as Record<string, unknown>;
    warnings.nws.setActive(point(OFFICE), [
      {
        ...WATCH.alert,
        id: `https://api.weather.gov/alerts/${huge.slice(0, 20_000)}`,
        properties: {
          ...properties,
          id: `urn:oid:${huge.slice(0, 20_000)}`,
          event: "<script>alert(1)</script>{{places}} $t(push.digestTitle)",
          headline: huge,
          description: "\u0000\u202e" + huge,
          severity: "Apocalyptic",
        },
      },
    ]);
    warnings.fail("meteoalarm", "billion-laughs");
    warnings.fail("nws", "garbage", { point: point(ELSEWHERE_US) });
    const report = await t.api.engine.pass(++tick);
    expect(report.shards.length).toBeGreaterThan(0);
    const { db } = t.api.services;
    expect((await warningMessages(db, calm)).map(({ change, title }) => ({ change, title }))).toEqual([
      { change: "ISSUED", title: "Severe weather warning: Tornado Watch — Mobile" },
    ]);
    const [strange] = await warningMessages(db, hostile);
    // Told as text, bounded, to its own user only.
    expect(strange!.title).toBe("Weather warning: <script>alert(1)</script>{{places}} $t(push.digestTitle) — Office");
    expect(strange!.body.length).toBeLessThan(3_000);
    expect(["\u0000", "\u202e"].filter((char) => strange!.body.includes(char))).toEqual([]);
    expect(strange!.dedupe_key.length).toBeLessThan(300);
    expect(await warningMessages(db, french)).toEqual([]);
    expect(await warningMessages(db, bombed)).toEqual([]);
    expect((await warningMessages(db)).map((message) => message.user_id).sort()).toEqual([calm, hostile].sort());
    // Each refused answer is logged once, however often it is asked again.
    for (const minutes of [2, 4, 10]) {
      clock.set(new Date(Date.parse(NWS_TIMES.issued) + minutes * 60_000).toISOString());
      await passes(t);
    }
    expect((await warningMessages(db)).map((message) => message.user_id).sort()).toEqual([calm, hostile].sort());
    const refusals = warn.mock.calls.filter((call) => String(call[0]).includes("[warnings]"));
    expect(refusals).toHaveLength(2);
  });
});

describe("official warnings with engine instances in processes of their own", () => {
  const instances: EngineInstance[] = [];
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.kill()));
  });

  it("two instances sharing ticks, restarted for each step of a warning, tell it once per step", async () => {
    const { t } = await start(NWS_TIMES.issued);
    const users: string[] = [];
    for (let i = 0; i < 24; i++) users.push(await userWith(t, i % 2 ? [MOBILE] : [ISERE, MOBILE]));
    const store = { dataDir: t.dataDir, databaseUrl: t.databaseUrl };
    warnings.nws.setActive(point(MOBILE), [WATCH.alert]);
    warnings.meteoAlarm.setDocuments("france", []);
    const steps = [
      { at: NWS_TIMES.issued, features: [WATCH.alert] },
      { at: NWS_TIMES.updated, features: [WATCH.update] },
      { at: NWS_TIMES.cancelled, features: [WATCH.cancel] },
    ];
    let step = 0;
    for (const { at, features } of steps) {
      warnings.nws.setActive(point(MOBILE), features);
      const pair = [0, 1].map((index) =>
        startEngineInstance(store, weather.url, at, { id: `warnings-${step}-${index}`, leaseMs: 60_000, warningsUrl: warnings.url }),
      );
      instances.push(...pair);
      await Promise.all(pair.map((instance) => instance.ready()));
      // Two ticks each: the second finds nothing new.
      for (const each of [1, 2]) {
        for (const instance of pair) instance.tick(step * 10 + each);
        await Promise.all(pair.map((instance) => instance.passed(step * 10 + each)));
      }
      await Promise.all(pair.map((instance) => instance.stop()));
      step++;
    }
    const told = await warningMessages(t.api.services.db);
    for (const user of users)
      expect(told.filter((message) => message.user_id === user).map((message) => message.change)).toEqual(["ISSUED", "UPDATED", "CLEARED"]);
    expect(told).toHaveLength(users.length * 3);
  }, 120_000);
});
