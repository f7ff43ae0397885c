import { readFileSync } from "node:fs";
import path from "node:path";
import { CombinedError } from "@urql/core";
import { GraphQLError } from "graphql";
import i18next, { type TFunction } from "i18next";
import { describe, expect, it } from "vitest";
import { invalidInput } from "~/api/input.server";
import { apiIssues, fieldErrors } from "~/lib/forms/field-errors";
import { SUPPORTED_LOCALES } from "~/lib/i18n/config";
import { alertRuleInput } from "~/shared/inputs/alert-rule";
import { checkInput, type InputIssue } from "~/shared/inputs/issues";

async function translator(locale: string): Promise<TFunction> {
  const common = JSON.parse(readFileSync(path.resolve(import.meta.dirname, `../../locales/${locale}/common.json`), "utf8"));
  const instance = i18next.createInstance();
  await instance.init({ lng: locale, resources: { [locale]: { common } }, defaultNS: "common", interpolation: { escapeValue: false } });
  return instance.t;
}

/** What the browser gets when the API refuses an input: its GraphQL error, as urql hands it over. */
const answered = (issues: InputIssue[]) => {
  const { message, extensions } = invalidInput(issues);
  return new CombinedError({ graphQLErrors: [new GraphQLError(message, { extensions })] });
};

const RULE_FIELDS = { name: "name", threshold: "threshold", activeFrom: "activeHours", activeTo: "activeHours" } as const;

describe("field errors", () => {
  it.each(SUPPORTED_LOCALES)("are the same for a value the form refuses and one the API refuses (%s)", async (locale) => {
    const t = await translator(locale);
    const rule = { name: " ", metric: "PRECIPITATION_PROBABILITY", threshold: 150, activeFrom: "07:00" };
    const checked = checkInput(alertRuleInput, rule);
    if (checked.ok) throw new Error("accepted");
    const fromForm = fieldErrors(checked.issues, t, { fields: RULE_FIELDS });
    const fromApi = fieldErrors(apiIssues(answered(checked.issues)), t, { fields: RULE_FIELDS });
    expect(fromApi).toEqual(fromForm);
    expect(Object.keys(fromForm).sort()).toEqual(["activeHours", "name", "threshold"]);
    for (const message of Object.values(fromForm)) expect(message).not.toMatch(/inputs\.|\{\{/);
    if (locale === "en-US") {
      expect(fromForm).toEqual({
        name: "Give the rule a name.",
        threshold: "Enter a value from 0 to 100.",
        activeHours: "Choose both times, or set both to “Not set”.",
      });
    }
  });

  it.each(SUPPORTED_LOCALES)("for half-set active hours name the time select's empty choice, not an empty field (%s)", async (locale) => {
    const t = await translator(locale);
    const checked = checkInput(alertRuleInput, { name: "Rain", metric: "PRECIPITATION_PROBABILITY", threshold: 50, activeTo: "07:00" });
    if (checked.ok) throw new Error("accepted");
    const { activeHours } = fieldErrors(checked.issues, t, { fields: RULE_FIELDS });
    // The select offers no empty field to leave: its empty choice is this option (time-select.tsx's `none`).
    expect(activeHours).toContain(t("alerts.form.noTime"));
  });

  it("keep the first issue of a field, leave out fields the form does not show, and adapt numbers to the form", async () => {
    const t = await translator("en-US");
    const issues: InputIssue[] = [
      { field: "threshold", code: "THRESHOLD_RANGE", params: { min: 0, max: 400 } },
      { field: "threshold", code: "THRESHOLD_REQUIRED" },
      { field: "cooldownHours", code: "COOLDOWN_RANGE", params: { min: 0, max: 168 } },
    ];
    const toMph = (issue: InputIssue) =>
      issue.code === "THRESHOLD_RANGE" ? { min: 0, max: Math.round(Number(issue.params!.max) / 1.609344) } : undefined;
    expect(fieldErrors(issues, t, { fields: ["threshold"], params: toMph })).toEqual({ threshold: "Enter a value from 0 to 249." });
  });

  it("read an older answer's field and reason, and nothing from errors that are not bad input", async () => {
    const t = await translator("de-DE");
    const error = new CombinedError({
      graphQLErrors: [
        new GraphQLError("Too common", { extensions: { code: "BAD_USER_INPUT", field: "password", reason: "PASSWORD_TOO_COMMON" } }),
        new GraphQLError("Slow down", { extensions: { code: "RATE_LIMITED", field: "email", reason: "EMAIL_INVALID" } }),
        new GraphQLError("Odd", { extensions: { code: "BAD_USER_INPUT", issues: [{ field: "email", code: "NO_SUCH_CODE" }, null] } }),
      ],
    });
    expect(apiIssues(error)).toEqual([{ field: "password", code: "PASSWORD_TOO_COMMON" }]);
    expect(fieldErrors(apiIssues(error), t, { fields: ["email", "password"] })).toEqual({
      password: "Dieses Passwort ist zu verbreitet. Wähle ein anderes.",
    });
    expect(apiIssues(null)).toEqual([]);
  });
});
