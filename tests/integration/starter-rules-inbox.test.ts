import { describe, expect, it } from "vitest";
import type { Scenario } from "../fakes/open-meteo";
import enUS from "../../locales/en-US/common.json";
import { MAX_RULES } from "~/api/schema/alert-rules.server";
import type { StarterRule } from "~/shared/schema-enums.generated";
import { STARTER_RULES, starterRuleInput } from "~/lib/starter-rules";
import { testApis, type TestApi } from "../support/api-server";
import {
  TestAlertAddPlaceDocument as ADD_PLACE,
  TestAlertInboxDocument as INBOX,
  TestAlertSaveRuleDocument as SAVE,
  TestAlertSearchDocument as SEARCH,
  TestAlertSettingsDocument as SETTINGS,
  TestStarterAddRulesDocument as ADD_RULES,
  TestStarterRuleNamesDocument as RULE_NAMES,
} from "../support/documents.generated";

const api = testApis();
const H = 3600;
const START = Date.parse("2026-06-05T15:00:00Z") / 1000; // a Friday afternoon

/**
 * A stormy weekend over five places, all of it inside the starter rules' 24 hours from the start:
 * gusts in Reykjavík in three windows and in London in two; frost in Reykjavík and Berlin overnight;
 * a thunderstorm in Paris; calm in New York.
 */
const weekend: Scenario = (latitude, longitude, time) => {
  const hour = (time - START) / H;
  const at = (from: number, to: number) => hour >= from && hour < to;
  const reykjavik = latitude > 60;
  const london = Math.abs(latitude - 51.5) < 0.1;
  const berlin = Math.abs(latitude - 52.5) < 0.1;
  const paris = Math.abs(latitude - 48.9) < 0.1;
  const gusts = (reykjavik && (at(3, 5) || at(9, 12) || at(18, 20))) || (london && (at(6, 8) || at(14, 15))) ? 83 : 25;
  const frost = (reykjavik || berlin) && at(10, 16);
  return {
    wind_gusts_10m: gusts,
    temperature_2m: frost ? -3 : 12,
    apparent_temperature: frost ? -6 : 10,
    weather_code: paris && at(4, 6) ? 95 : 3,
    precipitation: 0,
  };
};

/** Every starter rule, named as the home screen names them in English. */
const STARTER_INPUTS = STARTER_RULES.map(({ key }) => starterRuleInput(key, enUS.starterRules.names[key]));

const starterInput = (starter: StarterRule) => STARTER_INPUTS.find((input) => input.starter === starter)!;

/** A reader in UTC on a 24-hour clock, in km/h and °C, with places found by these searches. */
async function readerWithPlaces(t: TestApi, queries: string[]) {
  const token = await t.signUp();
  await t.gql(
    SETTINGS,
    { input: { timeZone: "UTC", windSpeedUnit: "KMH", temperatureUnit: "CELSIUS", hour12: false, language: "EN_US" } },
    { token },
  );
  const placeIds: string[] = [];
  for (const query of queries) {
    const found = await t.gql(SEARCH, { query }, { token });
    const added = await t.gql(ADD_PLACE, { id: found.data!.searchLocations[0]!.id }, { token });
    expect(added.errors).toBeUndefined();
    placeIds.push(added.data!.addPlace.id);
  }
  return { token, placeIds };
}

describe("rules made in one call", () => {
  it("are saved all or none: one bad input, one place not the user's or one rule over the limit saves none of them", async () => {
    const t = await api();
    const { token } = await readerWithPlaces(t, ["berlin"]);
    const names = async () => (await t.gql(RULE_NAMES, {}, { token })).data!.alertRules.map((rule) => rule.name);

    const [gusts, thunderstorm, heavyRain, frost, heat] = [
      starterInput("GUSTS"),
      starterInput("THUNDERSTORM"),
      starterInput("HEAVY_RAIN"),
      starterInput("FROST"),
      starterInput("HEAT"),
    ] as const;
    const signedOut = await t.gql(ADD_RULES, { inputs: [gusts] });
    expect(signedOut.errors?.map((error) => error.extensions?.code)).toEqual(["UNAUTHENTICATED"]);

    // Heavy rain over 500 mm an hour, and frost without its threshold: both named, by input and field.
    const bad = await t.gql(
      ADD_RULES,
      { inputs: [gusts, thunderstorm, { ...heavyRain, threshold: 900 }, { ...frost, threshold: null }, heat] },
      { token },
    );
    expect(bad.data).toBeNull();
    expect(bad.errors).toEqual([
      {
        message: "The threshold for this metric must be from 0 to 500",
        extensions: {
          code: "BAD_USER_INPUT",
          field: "inputs.2.threshold",
          reason: "THRESHOLD_RANGE",
          issues: [
            { field: "inputs.2.threshold", code: "THRESHOLD_RANGE", params: { min: 0, max: 500 } },
            { field: "inputs.3.threshold", code: "THRESHOLD_REQUIRED", params: { min: -90, max: 60 } },
          ],
        },
      },
    ]);
    expect(await names()).toEqual([]);

    const other = await readerWithPlaces(t, ["paris"]);
    const foreign = await t.gql(ADD_RULES, { inputs: [gusts, { ...thunderstorm, placeId: other.placeIds[0]! }] }, { token });
    expect(foreign.errors?.map((error) => error.extensions?.code)).toEqual(["NOT_FOUND"]);
    expect(await names()).toEqual([]);

    const tooMany = Array.from({ length: MAX_RULES + 1 }, (_, index) => ({ ...gusts, name: `Gusts ${index}`, starter: null }));
    const refused = await t.gql(ADD_RULES, { inputs: tooMany }, { token });
    expect(refused.errors?.map((error) => [error.message, error.extensions])).toEqual([
      [`You can have up to ${MAX_RULES} alert rules`, { code: "BAD_USER_INPUT", field: "inputs" }],
    ]);
    expect(await names()).toEqual([]);

    // The limit counts the rules the user has and every one of the call's, before any is written; the list keeps
    // the order given.
    const most = tooMany.slice(0, MAX_RULES - 2);
    expect((await t.gql(ADD_RULES, { inputs: most }, { token })).data!.addAlertRules.map((rule) => rule.name)).toEqual(
      most.map((input) => input.name),
    );
    const over = await t.gql(ADD_RULES, { inputs: [gusts, thunderstorm, frost] }, { token });
    expect(over.errors?.map((error) => [error.message, error.extensions])).toEqual([
      [`You can have up to ${MAX_RULES} alert rules`, { code: "BAD_USER_INPUT", field: "inputs" }],
    ]);
    expect(await names()).toEqual(most.map((input) => input.name));
    const added = await t.gql(ADD_RULES, { inputs: [gusts, thunderstorm] }, { token });
    expect(added.data!.addAlertRules).toEqual([
      { id: expect.any(String), name: "Strong gusts", starter: "GUSTS" },
      { id: expect.any(String), name: "Thunderstorm", starter: "THUNDERSTORM" },
    ]);
    expect(await names()).toEqual([...most.map((input) => input.name), "Strong gusts", "Thunderstorm"]);
    expect((await t.gql(SAVE, { input: heat }, { token })).errors?.map((error) => error.extensions?.code)).toEqual(["BAD_USER_INPUT"]);
    expect((await t.gql(ADD_RULES, { inputs: [] }, { token })).data!.addAlertRules).toEqual([]);
  });

  it("are new together: a pass right after the call, or one while it writes, tells what they find ahead in one summary", async () => {
    let writing = false;
    let during: Promise<unknown> | null = null;
    const t = await api({
      now: () => new Date(START * 1000),
      // A pass started as the call writes its rules: it reads none of them (the transaction is open) or, waiting for
      // the connection, all of them.
      onStatement: (sql) => {
        if (writing && !during && /^insert into "alert_rules"/.test(sql)) during = t.api.services.alerts.evaluateAll();
      },
    });
    t.fake.setScenario(weekend);
    const places = ["paris", "london", "berlin"];
    const chosen = STARTER_INPUTS.filter((input) => ["GUSTS", "THUNDERSTORM", "FROST"].includes(input.starter!));
    const titles = async (token: string) => (await t.gql(INBOX, {}, { token })).data!.messages.edges.map((message) => message.title);

    const after = await readerWithPlaces(t, places);
    expect((await t.gql(ADD_RULES, { inputs: chosen }, { token: after.token })).errors).toBeUndefined();
    await t.api.services.alerts.evaluateAll();
    expect(await titles(after.token)).toEqual(["Your new rules: 3 things ahead"]);

    const meanwhile = await readerWithPlaces(t, places);
    writing = true;
    expect((await t.gql(ADD_RULES, { inputs: chosen }, { token: meanwhile.token })).errors).toBeUndefined();
    expect(during).not.toBeNull();
    await during;
    await t.api.services.alerts.evaluateAll();
    expect(await titles(meanwhile.token)).toEqual(["Your new rules: 3 things ahead"]);
    expect(await titles(after.token)).toEqual(["Your new rules: 3 things ahead"]);
  });
});

describe("the starter rules on five places", () => {
  it("tell what is ahead in one summary when they go on, then only what is new: one message per rule for a later window, naming its places", async () => {
    let now = START * 1000;
    const t = await api({ now: () => new Date(now) });
    t.fake.setScenario(weekend);
    const token = await t.signUp();
    await t.gql(
      SETTINGS,
      { input: { timeZone: "UTC", windSpeedUnit: "KMH", temperatureUnit: "CELSIUS", hour12: false, language: "EN_US" } },
      { token },
    );
    for (const query of ["berlin", "paris", "london", "reykjavik", "new york"]) {
      const found = await t.gql(SEARCH, { query }, { token });
      expect((await t.gql(ADD_PLACE, { id: found.data!.searchLocations[0]!.id }, { token })).errors).toBeUndefined();
    }
    // Every starter rule, as the home screen's list makes them: in one call.
    expect((await t.gql(ADD_RULES, { inputs: STARTER_INPUTS }, { token })).errors).toBeUndefined();
    const inbox = async () => (await t.gql(INBOX, {}, { token })).data!.messages.edges;

    // Passes every 5 minutes for 24 hours, two each (as two instances would).
    for (let minute = 0; minute < 24 * 60; minute += 5) {
      now = (START + minute * 60) * 1000;
      await t.api.services.alerts.evaluateAll();
      await t.api.services.alerts.evaluateAll();
      if (minute === 0) expect(await inbox()).toHaveLength(1);
    }
    const [summary, ...rest] = await inbox();
    expect(rest).toEqual([]);
    expect(summary).toMatchObject({ kind: "ALERT", title: "Your new rules: 3 things ahead", urgent: true });
    // Each rule a line (urgent first, then the soonest), each place with its windows in its own zone (named where the
    // reader's clock differs).
    expect(summary!.body.split("\n")).toEqual([
      "Thunderstorm in Paris from Fri 21:00 to 23:00 GMT+2.",
      "Gusts 83 km/h in London (Fri 22:00–00:00, Sat 06:00–07:00 GMT+1) and Reykjavík (Fri 18:00–20:00, Sat 00:00–03:00, 09:00–11:00); peak Fri 22:00 in London.",
      "Temperature -3 °C in Berlin (Sat 03:00–09:00 GMT+2) and Reykjavík (Sat 01:00–07:00); peak Sat 03:00 in Berlin.",
    ]);

    // A gale on Sunday at both windy places, once it comes into the look-ahead: one message naming both.
    t.fake.setScenario((latitude, longitude, time) => {
      const hour = (time - START) / H;
      const windy = latitude > 60 || Math.abs(latitude - 51.5) < 0.1;
      return hour >= 40 && hour < 42 && windy
        ? { ...weekend(latitude, longitude, time), wind_gusts_10m: 90 }
        : weekend(latitude, longitude, time);
    });
    for (let minute = 24 * 60; minute < 48 * 60; minute += 30) {
      now = (START + minute * 60) * 1000;
      await t.api.services.alerts.evaluateAll();
    }
    const later = (await inbox()).slice(0, -1);
    expect(later.map((m) => [m.title, m.body])).toEqual([
      [
        "Strong gusts: London and Reykjavík",
        "Gusts 90 km/h in London (Sun 08:00–10:00 GMT+1) and Reykjavík (Sun 07:00–09:00); peak Sun 08:00 in London.",
      ],
    ]);
  });
});
