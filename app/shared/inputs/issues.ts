import * as z from "zod/mini";

/**
 * Every problem an input can have, by a stable code. A schema's issue carries the code as
 * its message; the app translates it (`inputs.<CODE>` in locales/<locale>/common.json), the
 * API answers it in `extensions.issues` with the English protocol text below as the error's
 * message (developers read that one, users never do).
 */
const PROTOCOL_TEXTS = {
  EMAIL_REQUIRED: () => "Enter an email address",
  EMAIL_INVALID: () => "Enter a valid email address",
  EMAIL_TAKEN: () => "An account with this email already exists; log in instead",
  PASSWORD_REQUIRED: () => "Enter a password",
  PASSWORD_TOO_SHORT: (p) => `Password must be at least ${p.min} characters`,
  PASSWORD_TOO_LONG: (p) => `Password must be at most ${p.max} characters`,
  PASSWORD_BLANK: () => "Password cannot be only spaces",
  PASSWORD_LIKE_EMAIL: () => "Password cannot be your email address or its name part",
  PASSWORD_TOO_COMMON: () => "This password is too common; choose another",
  PASSWORD_WRONG: () => "This is not the account's current password",
  EMAIL_UNCHANGED: () => "This is the account's address already",
  TOKEN_INVALID: () => "This link is not valid; ask for a new one",
  TOKEN_EXPIRED: () => "This link has expired; ask for a new one",
  TOKEN_USED: () => "This link was used already; ask for a new one",
  REGION_INVALID: () => "region must be a two-letter country code such as GB",
  LOCATION_REQUIRED: () => "Give a locationId from searchLocations, or both latitude and longitude",
  LATITUDE_RANGE: () => "latitude must be between -90 and 90",
  LONGITUDE_RANGE: () => "longitude must be between -180 and 180",
  LABEL_REQUIRED: () => "A label cannot be empty",
  LABEL_TOO_LONG: (p) => `A label has at most ${p.max} characters`,
  LABEL_CONTROL_CHARACTERS: () => "A label cannot contain control characters",
  BRIEFING_NAME_REQUIRED: (p) => `A name has 1 to ${p.max} characters`,
  ALERT_RULE_NAME_REQUIRED: (p) => `A name has 1 to ${p.max} characters`,
  NAME_TOO_LONG: (p) => `A name has 1 to ${p.max} characters`,
  PLACES_REQUIRED: () => "Choose at least one place",
  PLACES_NOT_OWNED: () => "Choose among your own places",
  DAYS_REQUIRED: () => "Choose at least one day",
  EMAIL_DELIVERY_UNAVAILABLE: () => "This server sends no mail: a briefing cannot be emailed",
  CONDITIONS_REQUIRED: () => "Choose at least one condition",
  THRESHOLD_REQUIRED: () => "A threshold is needed for this metric",
  THRESHOLD_RANGE: (p) => `The threshold for this metric must be from ${p.min} to ${p.max}`,
  LOOKAHEAD_RANGE: (p) => `Look ahead ${p.min} to ${p.max} hours`,
  COOLDOWN_RANGE: (p) => `A cooldown is ${p.min} to ${p.max} hours`,
  ACTIVE_HOURS_INCOMPLETE: () => "Give both ends of the active hours, or neither",
  ACTIVE_HOURS_EMPTY: () => "The active hours cannot start and end at the same time",
  TIME_ZONE_UNKNOWN: () => "Unknown time zone",
  TIME_INVALID: () => "A time is from 00:00 to 23:59",
  INVALID: () => "This value is not accepted",
} satisfies Record<string, (params: IssueParams) => string>;

export type InputIssueCode = keyof typeof PROTOCOL_TEXTS;
export type IssueParams = Record<string, string | number>;

/** One problem of an input: the field it is about (dotted path; "" for the whole input), its code, the numbers its text needs. */
export type InputIssue = { field: string; code: InputIssueCode; params?: IssueParams };

export const INPUT_ISSUE_CODES = Object.keys(PROTOCOL_TEXTS) as InputIssueCode[];

export function isInputIssueCode(value: unknown): value is InputIssueCode {
  return typeof value === "string" && Object.hasOwn(PROTOCOL_TEXTS, value);
}

/** The API's English text for an issue (the GraphQL error's message). */
export function protocolText(issue: InputIssue): string {
  return PROTOCOL_TEXTS[issue.code](issue.params ?? {});
}

/**
 * A schema's issues as input issues. A check's message is its code; a length or size limit
 * zod knows becomes `max`; anything without a code of ours (a wrong type) is INVALID.
 */
export function inputIssues(error: z.core.$ZodError): InputIssue[] {
  return error.issues.map((issue) => {
    const code = isInputIssueCode(issue.message) ? issue.message : "INVALID";
    const params: IssueParams = { ...((issue as { params?: IssueParams }).params ?? {}) };
    if (issue.code === "too_big" && typeof issue.maximum === "number") params.max ??= issue.maximum;
    const field = issue.path.map(String).join(".");
    return Object.keys(params).length > 0 ? { field, code, params } : { field, code };
  });
}

/** Reports a problem from a refinement (`superRefine`), with the numbers its text needs. */
export function addIssue(context: z.core.$RefinementCtx, field: string | null, code: InputIssueCode, params?: IssueParams) {
  context.addIssue({ code: "custom", message: code, path: field ? [field] : [], ...(params ? { params } : {}) });
}

/** A name: trimmed, required (`requiredCode`), at most `max` characters; the bounds travel with the issue. */
export function nameText(max: number, requiredCode: InputIssueCode) {
  return z.string().check(
    z.trim(),
    z.superRefine((name, context) => {
      if (name.length === 0) addIssue(context, null, requiredCode, { max });
      else if (name.length > max) addIssue(context, null, "NAME_TOO_LONG", { max });
    }),
  );
}

/** A whole number from `min` to `max`; the bounds travel with the issue. */
export function wholeNumber(min: number, max: number, code: InputIssueCode) {
  return z.number().check(
    z.superRefine((value, context) => {
      if (!Number.isInteger(value) || value < min || value > max) addIssue(context, null, code, { min, max });
    }),
  );
}

/** The outcome of checking a value: what it becomes, or its issues. */
export type InputResult<T> = { ok: true; value: T } | { ok: false; issues: InputIssue[] };

export function checkInput<S extends z.ZodMiniType>(schema: S, value: unknown): InputResult<z.output<S>> {
  const result = schema.safeParse(value);
  return result.success ? { ok: true, value: result.data } : { ok: false, issues: inputIssues(result.error) };
}
