import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { logInInput, signUpInput } from "~/shared/inputs/account";
import { alertRuleInput } from "~/shared/inputs/alert-rule";
import { briefingInput } from "~/shared/inputs/briefing";
import { checkInput, INPUT_ISSUE_CODES, protocolText, type InputIssue } from "~/shared/inputs/issues";
import { addPlaceInput, renamePlaceInput } from "~/shared/inputs/place";
import { settingsInput } from "~/shared/inputs/settings";
import { SUPPORTED_LOCALES } from "~/lib/i18n/config";

/** The issues of a value that should be refused (fails if it is accepted). */
function issues(result: ReturnType<typeof checkInput>): InputIssue[] {
  if (result.ok) throw new Error(`accepted: ${JSON.stringify(result.value)}`);
  return result.issues;
}

describe("issue codes", () => {
  it.each(SUPPORTED_LOCALES)("each has a text in %s (inputs.<CODE>) with the placeholders of its params", (locale) => {
    const common = JSON.parse(readFileSync(path.resolve(import.meta.dirname, `../../locales/${locale}/common.json`), "utf8"));
    for (const code of INPUT_ISSUE_CODES) expect(typeof common.inputs?.[code], `${locale} inputs.${code}`).toBe("string");
    expect(Object.keys(common.inputs).sort()).toEqual([...INPUT_ISSUE_CODES].sort());
  });

  it("each has an English protocol text for the API's message", () => {
    for (const code of INPUT_ISSUE_CODES) expect(protocolText({ field: "x", code, params: { min: 1, max: 2 } })).toMatch(/^[A-Za-z]/);
    expect(protocolText({ field: "threshold", code: "THRESHOLD_RANGE", params: { min: 0, max: 100 } })).toBe(
      "The threshold for this metric must be from 0 to 100",
    );
  });
});

describe("account", () => {
  const signUp = (email: string, password: string) => checkInput(signUpInput, { email, password });

  it("normalises a valid sign-up", () => {
    expect(signUp("  Ada@Example.COM ", "long enough pass")).toEqual({
      ok: true,
      value: { email: "ada@example.com", password: "long enough pass" },
    });
  });

  it.each([
    ["", "long enough pass", [{ field: "email", code: "EMAIL_REQUIRED" }]],
    ["not-an-email", "long enough pass", [{ field: "email", code: "EMAIL_INVALID" }]],
    ["bell\u0007@example.com", "long enough pass", [{ field: "email", code: "EMAIL_INVALID" }]],
    ["a@example.com", "", [{ field: "password", code: "PASSWORD_REQUIRED" }]],
    ["a@example.com", "seven77", [{ field: "password", code: "PASSWORD_TOO_SHORT", params: { min: 8 } }]],
    ["a@example.com", "x".repeat(257), [{ field: "password", code: "PASSWORD_TOO_LONG", params: { max: 256 } }]],
    ["a@example.com", "        ", [{ field: "password", code: "PASSWORD_BLANK" }]],
    ["Margaret.Hamilton@example.com", "margaret.hamilton", [{ field: "password", code: "PASSWORD_LIKE_EMAIL" }]],
    ["apollo@example.com", "Apollo@Example.com", [{ field: "password", code: "PASSWORD_LIKE_EMAIL" }]],
    ["a@example.com", "Password1", [{ field: "password", code: "PASSWORD_TOO_COMMON" }]],
  ])("refuses sign-up %j / %j", (email, password, expected) => {
    expect(issues(signUp(email, password))).toEqual(expected);
  });

  it("refuses a region that is not a country code", () => {
    expect(issues(checkInput(signUpInput, { email: "a@example.com", password: "long enough pass", region: "gb" }))).toEqual([
      { field: "region", code: "REGION_INVALID" },
    ]);
  });

  it("log-in needs both, and an email that could be one; nothing more", () => {
    expect(issues(checkInput(logInInput, { email: " ", password: "" }))).toEqual([
      { field: "email", code: "EMAIL_REQUIRED" },
      { field: "password", code: "PASSWORD_REQUIRED" },
    ]);
    expect(issues(checkInput(logInInput, { email: "not-an-email", password: "short" }))).toEqual([
      { field: "email", code: "EMAIL_INVALID" },
    ]);
    expect(checkInput(logInInput, { email: "X@Y.Z", password: "short" })).toEqual({
      ok: true,
      value: { email: "x@y.z", password: "short" },
    });
  });
});

describe("place", () => {
  it("folds whitespace in a label", () => {
    expect(checkInput(renamePlaceInput, { label: "  Home \n sweet\thome " })).toEqual({ ok: true, value: { label: "Home sweet home" } });
  });

  it.each([
    ["Home\u0000", "LABEL_CONTROL_CHARACTERS", undefined],
    ["A\u202Eevil", "LABEL_CONTROL_CHARACTERS", undefined],
    ["   ", "LABEL_REQUIRED", undefined],
    ["x".repeat(61), "LABEL_TOO_LONG", { max: 60 }],
  ])("refuses the label %j", (label, code, params) => {
    expect(issues(checkInput(renamePlaceInput, { label }))).toEqual([{ field: "label", code, ...(params ? { params } : {}) }]);
  });

  it("adds a search result or a coordinate, nothing else", () => {
    expect(checkInput(addPlaceInput, { locationId: "2950159", label: null }).ok).toBe(true);
    expect(checkInput(addPlaceInput, { latitude: 40.4, longitude: -3.7 }).ok).toBe(true);
    expect(issues(checkInput(addPlaceInput, {}))).toEqual([{ field: "locationId", code: "LOCATION_REQUIRED" }]);
    expect(issues(checkInput(addPlaceInput, { latitude: 91, longitude: 181 }))).toEqual([
      { field: "latitude", code: "LATITUDE_RANGE" },
      { field: "longitude", code: "LONGITUDE_RANGE" },
    ]);
    expect(issues(checkInput(addPlaceInput, { locationId: "1", label: "Office\u0000" }))).toEqual([
      { field: "label", code: "LABEL_CONTROL_CHARACTERS" },
    ]);
  });
});

describe("briefing", () => {
  const morning = { name: " Morning ", placeIds: ["a", "a", "b"], period: "TODAY", time: "07:00", days: ["MON"] };

  it("trims the name and keeps each place once", () => {
    expect(checkInput(briefingInput, morning)).toEqual({ ok: true, value: { ...morning, name: "Morning", placeIds: ["a", "b"] } });
  });

  it("names every problem on its field", () => {
    expect(issues(checkInput(briefingInput, { ...morning, name: "  ", placeIds: [], days: [] }))).toEqual([
      { field: "name", code: "BRIEFING_NAME_REQUIRED", params: { max: 60 } },
      { field: "placeIds", code: "PLACES_REQUIRED" },
      { field: "days", code: "DAYS_REQUIRED" },
    ]);
    expect(issues(checkInput(briefingInput, { ...morning, name: "x".repeat(61) }))).toEqual([
      { field: "name", code: "NAME_TOO_LONG", params: { max: 60 } },
    ]);
  });
});

describe("alert rule", () => {
  const gusts = { name: "Gale", metric: "WIND_GUSTS", threshold: 60 };
  const codes = (input: Record<string, unknown>) => issues(checkInput(alertRuleInput, { ...gusts, ...input })).map((issue) => issue.code);

  it("takes a rule with the schema's defaults left out", () => {
    expect(checkInput(alertRuleInput, { ...gusts, name: " Gale " })).toEqual({ ok: true, value: gusts });
    expect(checkInput(alertRuleInput, { name: "Storm", metric: "CONDITION", conditions: ["THUNDERSTORM"] }).ok).toBe(true);
  });

  it("keeps thresholds in the metric's plausible range, with the range in the issue", () => {
    expect(issues(checkInput(alertRuleInput, { ...gusts, metric: "PRECIPITATION_PROBABILITY", threshold: 150 }))).toEqual([
      { field: "threshold", code: "THRESHOLD_RANGE", params: { min: 0, max: 100 } },
    ]);
    expect(codes({ threshold: null })).toEqual(["THRESHOLD_REQUIRED"]);
    expect(codes({ threshold: Number.NaN })).toEqual(["INVALID"]);
  });

  it.each([
    [{ name: "  " }, ["ALERT_RULE_NAME_REQUIRED"]],
    [{ name: "x".repeat(61) }, ["NAME_TOO_LONG"]],
    [{ metric: "CONDITION", conditions: [] }, ["CONDITIONS_REQUIRED"]],
    [{ lookaheadHours: 0 }, ["LOOKAHEAD_RANGE"]],
    [{ lookaheadHours: 1.5 }, ["LOOKAHEAD_RANGE"]],
    [{ cooldownHours: 169 }, ["COOLDOWN_RANGE"]],
    [{ activeDays: [] }, ["DAYS_REQUIRED"]],
    [{ activeFrom: "07:00" }, ["ACTIVE_HOURS_INCOMPLETE"]],
    [{ activeFrom: "07:00", activeTo: "07:00" }, ["ACTIVE_HOURS_EMPTY"]],
  ])("refuses %j", (input, expected) => {
    expect(codes(input)).toEqual(expected);
  });

  it("says incomplete active hours on the end that is missing", () => {
    expect(issues(checkInput(alertRuleInput, { ...gusts, activeTo: "09:00" }))).toEqual([
      { field: "activeFrom", code: "ACTIVE_HOURS_INCOMPLETE" },
    ]);
  });
});

describe("settings", () => {
  it("takes any part of the settings", () => {
    expect(checkInput(settingsInput, {}).ok).toBe(true);
    expect(checkInput(settingsInput, { timeZone: "asia/tokyo", quietFrom: "22:00" }).ok).toBe(true);
  });

  it("refuses an unknown zone and a time that is not one", () => {
    expect(issues(checkInput(settingsInput, { timeZone: "Mars/Olympus_Mons", quietTo: "25:00" }))).toEqual([
      { field: "timeZone", code: "TIME_ZONE_UNKNOWN" },
      { field: "quietTo", code: "TIME_INVALID" },
    ]);
  });
});
