import type { TypedDocumentNode } from "@urql/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LogInDocument, SignUpDocument } from "~/lib/account-documents.generated";
import { type AlertRuleInput, type BriefingInput } from "~/lib/graphql/documents.generated";
import {
  PreviewAlertRuleDocument,
  RenamePlaceDocument,
  SaveAlertRuleDocument,
  SaveBriefingDocument,
  UpdateSettingsDocument,
} from "~/lib/graphql/later-documents.generated";
import { codes, startTestApi, type TestApi } from "../support/api-server";
import {
  TestIssuesAddHomeDocument,
  TestIssuesAddPlaceDocument,
  TestIssuesBriefingsDocument,
  TestIssuesSaveBriefingDocument,
  TestIssuesSaveRuleDocument,
  TestIssuesSearchDocument,
} from "../support/documents.generated";

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
  const found = await t.gql(TestIssuesSearchDocument, {}, { token });
  const added = await t.gql(TestIssuesAddHomeDocument, { id: found.data!.searchLocations[0]!.id }, { token });
  placeId = added.data!.addPlace.id;
  const rule = await t.gql(TestIssuesSaveRuleDocument, {}, { token });
  ruleId = rule.data!.saveAlertRule.id;
  const briefings = await t.gql(TestIssuesBriefingsDocument, {}, { token });
  briefingId =
    briefings.data!.briefings[0]?.id ?? (await t.gql(TestIssuesSaveBriefingDocument, { p: placeId }, { token })).data!.saveBriefing.id;
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

async function refused<R extends Record<string, unknown>, V extends Record<string, unknown>>(
  document: TypedDocumentNode<R, V>,
  variables: V,
  options: { token?: string } = { token },
) {
  const before = await everything();
  const result = await t.gql(document, variables, options);
  expect(codes(result)).toEqual(["BAD_USER_INPUT"]);
  expect(await everything()).toEqual(before);
  const extensions = result.errors![0]!.extensions as { field?: string; reason?: string; issues?: Issue[] };
  expect(extensions.issues?.[0]).toMatchObject({ field: extensions.field, code: extensions.reason });
  return { message: result.errors![0]!.message, issues: extensions.issues! };
}

// The app's own operations where it sends the same (typed documents); the place input's own (input-issues.graphql).
const SIGN_UP = SignUpDocument;
const LOG_IN = LogInDocument;
const ADD = TestIssuesAddPlaceDocument;
const RENAME = RenamePlaceDocument;
const SAVE_BRIEFING = SaveBriefingDocument;
const SAVE_RULE = SaveAlertRuleDocument;
const PREVIEW = PreviewAlertRuleDocument;
const SETTINGS = UpdateSettingsDocument;

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
    const input: BriefingInput = { name: "  ", placeIds: [], period: "TODAY", time: "07:00", days: [] };
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
    const input: AlertRuleInput = { name: "Rain", metric: "PRECIPITATION_PROBABILITY", threshold: 150, activeFrom: "07:00" };
    const expected = {
      message: "The threshold for this metric must be from 0 to 100",
      issues: [
        { field: "threshold", code: "THRESHOLD_RANGE", params: { min: 0, max: 100 } },
        { field: "activeTo", code: "ACTIVE_HOURS_INCOMPLETE" },
      ],
    };
    for (const id of [null, ruleId]) expect(await refused(SAVE_RULE, { id, input })).toEqual(expected);
    expect(await refused(PREVIEW, { input })).toEqual(expected);
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
