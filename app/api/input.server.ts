import type * as z from "zod/mini";
import { checkInput, protocolText, type InputIssue, type InputIssueCode, type IssueParams } from "../shared/inputs/issues";
import { apiError } from "./errors.server";

/**
 * BAD_USER_INPUT for an input's issues: the first one's English text as the message,
 * `field` and `reason` (its code) as before, and every issue in `issues` for forms that
 * show each on its field (app/lib/forms/field-errors.ts reads them).
 */
export function invalidInput(issues: readonly InputIssue[]) {
  const [first] = issues;
  if (!first) throw new Error("invalidInput needs at least one issue");
  return apiError("BAD_USER_INPUT", protocolText(first), {
    ...(first.field ? { field: first.field } : {}),
    reason: first.code,
    issues,
  });
}

/** One issue the schema cannot see (it needs the database): `field` is refused with `code`. */
export const inputIssue = (field: string, code: InputIssueCode, params?: IssueParams) =>
  invalidInput([params ? { field, code, params } : { field, code }]);

/** The input as its shared schema reads it (trimmed, normalised), or BAD_USER_INPUT with its issues. */
export function parseInput<S extends z.ZodMiniType>(schema: S, value: unknown): z.output<S> {
  const result = checkInput(schema, value);
  if (!result.ok) throw invalidInput(result.issues);
  return result.value;
}
