import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codes, startTestApi, type GraphQLResponse, type TestApi } from "../support/api-server";

// Each input's refusal: BAD_USER_INPUT, the first issue as `field`/`reason` (as before), every
// issue in `extensions.issues` (codes the app translates), and nothing written.
let t: TestApi;
let token: string;
let placeId: string;
let ruleId: string;
let briefingId: string;
beforeAll(async () => {
  t = await startTestApi();
  token = await t.signUp("issues@example.com");
  const found = await t.gql(`{ searchLocations(query: "berlin") { id } }`, {}, { token });
  const added = await t.gql(
    `mutation ($id: ID!) { addPlace(locationId: $id, label: "Home") { id } }`,
    { id: found.data!.searchLocations[0].id },
    { token },
  );
  placeId = added.data!.addPlace.id;
  const rule = await t.gql(`mutation { saveAlertRule(input: { name: "Gale", metric: WIND_GUSTS, threshold: 60 }) { id } }`, {}, { token });
  ruleId = rule.data!.saveAlertRule.id;
  const briefings = await t.gql(`{ briefings { id } }`, {}, { token });
  briefingId =
    briefings.data!.briefings[0]?.id ??
    (
      await t.gql(
        `mutation ($p: ID!) { saveBriefing(input: { name: "B", placeIds: [$p], period: TODAY, time: "07:00", days: [MON] }) { id } }`,
        { p: placeId },
        { token },
      )
    ).data!.saveBriefing.id;
});
afterAll(() => t.close());

/** Every row the inputs can write, to compare before and after a refusal. */
async function everything() {
  const db = t.api.services.db;
  return {
    users: await db.selectFrom("users").select(["id", "email"]).orderBy("id").execute(),
    settings: await db.selectFrom("settings").selectAll().orderBy("user_id").execute(),
    places: await db.selectFrom("places").selectAll().orderBy("id").execute(),
    briefings: await db.selectFrom("briefings").selectAll().orderBy("id").execute(),
    briefingPlaces: await db.selectFrom("briefing_places").selectAll().orderBy("briefing_id").orderBy("position").execute(),
    alertRules: await db.selectFrom("alert_rules").selectAll().orderBy("id").execute(),
  };
}

type Issue = { field: string; code: string; params?: Record<string, unknown> };

async function refused(query: string, variables: Record<string, unknown>, options: { token?: string } = { token }) {
  const before = await everything();
  const result: GraphQLResponse = await t.gql(query, variables, options);
  expect(codes(result)).toEqual(["BAD_USER_INPUT"]);
  expect(await everything()).toEqual(before);
  const extensions = result.errors![0]!.extensions as { field?: string; reason?: string; issues?: Issue[] };
  expect(extensions.issues?.[0]).toMatchObject({ field: extensions.field, code: extensions.reason });
  return { message: result.errors![0]!.message, issues: extensions.issues! };
}

const SIGN_UP = `mutation ($email: String!, $password: String!, $region: String) { signUp(email: $email, password: $password, region: $region) { token } }`;
const LOG_IN = `mutation ($email: String!, $password: String!) { logIn(email: $email, password: $password) { token } }`;
const ADD = `mutation ($locationId: ID, $latitude: Float, $longitude: Float, $label: String) {
  addPlace(locationId: $locationId, latitude: $latitude, longitude: $longitude, label: $label) { id }
}`;
const RENAME = `mutation ($id: ID!, $label: String!) { renamePlace(id: $id, label: $label) { id } }`;
const SAVE_BRIEFING = `mutation ($id: ID, $input: BriefingInput!) { saveBriefing(id: $id, input: $input) { id } }`;
const SAVE_RULE = `mutation ($id: ID, $input: AlertRuleInput!) { saveAlertRule(id: $id, input: $input) { id } }`;
const PREVIEW = `query ($input: AlertRuleInput!) { previewAlertRule(input: $input) { id } }`;
const SETTINGS = `mutation ($input: SettingsInput!) { updateSettings(input: $input) { id } }`;

describe("the API refuses bad input with its issues, and writes nothing", () => {
  it("sign-up and log-in", async () => {
    expect(await refused(SIGN_UP, { email: "not-an-email", password: "seven77" }, {})).toEqual({
      message: "Enter a valid email address",
      issues: [
        { field: "email", code: "EMAIL_INVALID" },
        { field: "password", code: "PASSWORD_TOO_SHORT", params: { min: 8 } },
      ],
    });
    expect((await refused(SIGN_UP, { email: "Issues@Example.com", password: "long enough pass" }, {})).issues).toEqual([
      { field: "email", code: "EMAIL_TAKEN" },
    ]);
    expect((await refused(SIGN_UP, { email: "new@example.com", password: "long enough pass", region: "gb" }, {})).issues).toEqual([
      { field: "region", code: "REGION_INVALID" },
    ]);
    expect((await refused(LOG_IN, { email: " ", password: "" }, {})).issues).toEqual([
      { field: "email", code: "EMAIL_REQUIRED" },
      { field: "password", code: "PASSWORD_REQUIRED" },
    ]);
  });

  it("places", async () => {
    expect((await refused(ADD, {})).issues).toEqual([{ field: "locationId", code: "LOCATION_REQUIRED" }]);
    expect((await refused(ADD, { latitude: 91, longitude: 0 })).issues).toEqual([{ field: "latitude", code: "LATITUDE_RANGE" }]);
    expect((await refused(ADD, { latitude: 40, longitude: 0, label: "x".repeat(61) })).issues).toEqual([
      { field: "label", code: "LABEL_TOO_LONG", params: { max: 60 } },
    ]);
    expect(await refused(RENAME, { id: placeId, label: "Home\u0007" })).toEqual({
      message: "A label cannot contain control characters",
      issues: [{ field: "label", code: "LABEL_CONTROL_CHARACTERS" }],
    });
    expect((await refused(RENAME, { id: placeId, label: " \n " })).issues).toEqual([{ field: "label", code: "LABEL_REQUIRED" }]);
  });

  it("briefings", async () => {
    const input = { name: "  ", placeIds: [], period: "TODAY", time: "07:00", days: [] };
    for (const id of [null, briefingId]) {
      expect((await refused(SAVE_BRIEFING, { id, input })).issues).toEqual([
        { field: "name", code: "BRIEFING_NAME_REQUIRED", params: { max: 60 } },
        { field: "placeIds", code: "PLACES_REQUIRED" },
        { field: "days", code: "DAYS_REQUIRED" },
      ]);
    }
    const other = await t.signUp();
    expect(
      (await refused(SAVE_BRIEFING, { input: { ...input, name: "Theirs", placeIds: [placeId], days: ["MON"] } }, { token: other })).issues,
    ).toEqual([{ field: "placeIds", code: "PLACES_NOT_OWNED" }]);
  });

  it("alert rules, saved or previewed", async () => {
    const input = { name: "Rain", metric: "PRECIPITATION_PROBABILITY", threshold: 150, activeFrom: "07:00" };
    for (const [query, id] of [
      [SAVE_RULE, null],
      [SAVE_RULE, ruleId],
      [PREVIEW, undefined],
    ] as const) {
      expect(await refused(query, { ...(id !== undefined ? { id } : {}), input })).toEqual({
        message: "The threshold for this metric must be from 0 to 100",
        issues: [
          { field: "threshold", code: "THRESHOLD_RANGE", params: { min: 0, max: 100 } },
          { field: "activeTo", code: "ACTIVE_HOURS_INCOMPLETE" },
        ],
      });
    }
    expect((await refused(SAVE_RULE, { input: { name: "", metric: "CONDITION", conditions: [], lookaheadHours: 0 } })).issues).toEqual([
      { field: "name", code: "ALERT_RULE_NAME_REQUIRED", params: { max: 60 } },
      { field: "lookaheadHours", code: "LOOKAHEAD_RANGE", params: { min: 1, max: 72 } },
      { field: "conditions", code: "CONDITIONS_REQUIRED" },
    ]);
  });

  it("settings", async () => {
    expect((await refused(SETTINGS, { input: { timeZone: "Mars/Olympus_Mons" } })).issues).toEqual([
      { field: "timeZone", code: "TIME_ZONE_UNKNOWN" },
    ]);
  });
});
