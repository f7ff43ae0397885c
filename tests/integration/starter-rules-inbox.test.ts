import { describe, expect, it } from "vitest";
import type { Scenario } from "../fakes/open-meteo";
import enUS from "../../locales/en-US/common.json";
import { STARTER_RULES, starterRuleInput } from "~/lib/starter-rules";
import { testApis } from "../support/api-server";
import {
  TestAlertAddPlaceDocument as ADD_PLACE,
  TestAlertInboxDocument as INBOX,
  TestAlertSaveRuleDocument as SAVE,
  TestAlertSearchDocument as SEARCH,
  TestAlertSettingsDocument as SETTINGS,
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
    // Every starter rule, as the home screen's list makes them.
    for (const { key } of STARTER_RULES) {
      const saved = await t.gql(SAVE, { input: starterRuleInput(key, enUS.starterRules.names[key]) }, { token });
      expect(saved.errors).toBeUndefined();
    }
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
