import type { CombinedError } from "@urql/core";
import type { TFunction } from "i18next";
import { isInputIssueCode, type InputIssue, type IssueParams } from "~/shared/inputs/issues";

/** A form's translated problems, by the form's own field names. */
export type FieldErrors<Field extends string> = Partial<Record<Field, string>>;

/**
 * The input issues of a refused operation: BAD_USER_INPUT errors' `extensions.issues`
 * (an error without them counts as one issue from its `field` and `reason`).
 */
export function apiIssues(error: CombinedError | null | undefined): InputIssue[] {
  const issues: InputIssue[] = [];
  for (const entry of error?.graphQLErrors ?? []) {
    const extensions = entry.extensions ?? {};
    if (extensions.code !== "BAD_USER_INPUT") continue;
    const listed = Array.isArray(extensions.issues) ? (extensions.issues as unknown[]) : [];
    for (const issue of listed) {
      const { field, code, params } = (issue ?? {}) as { field?: unknown; code?: unknown; params?: unknown };
      if (typeof field !== "string" || !isInputIssueCode(code)) continue;
      issues.push(params && typeof params === "object" ? { field, code, params: params as IssueParams } : { field, code });
    }
    if (listed.length === 0 && typeof extensions.field === "string" && isInputIssueCode(extensions.reason)) {
      issues.push({ field: extensions.field, code: extensions.reason });
    }
  }
  return issues;
}

/**
 * Issues (the form's own check, or the API's answer: the same shape) as the form's field
 * errors, translated: the first issue of a field wins. `fields` maps an input's field to
 * the form field that shows it (`activeFrom` → `activeHours`), or lists the fields shown
 * under their own names; issues of fields the form does not show are left out. `params` adapts an issue's numbers
 * to what the form shows (a threshold's range in the user's units).
 */
export function fieldErrors<Field extends string>(
  issues: readonly InputIssue[],
  t: TFunction,
  options: { fields: readonly Field[] | Readonly<Record<string, Field>>; params?: (issue: InputIssue) => IssueParams | undefined },
): FieldErrors<Field> {
  const errors: FieldErrors<Field> = {};
  for (const issue of issues) {
    const field = formField(issue.field, options.fields);
    if (!field || errors[field] !== undefined) continue;
    errors[field] = issueMessage(issue, t, options.params);
  }
  return errors;
}

/** One issue in the user's language. */
export function issueMessage(issue: InputIssue, t: TFunction, params?: (issue: InputIssue) => IssueParams | undefined): string {
  return t(`inputs.${issue.code}`, { ...issue.params, ...params?.(issue) });
}

function formField<Field extends string>(field: string, fields: readonly Field[] | Readonly<Record<string, Field>>): Field | undefined {
  if (Array.isArray(fields)) return (fields as readonly string[]).includes(field) ? (field as Field) : undefined;
  return Object.hasOwn(fields, field) ? (fields as Readonly<Record<string, Field>>)[field] : undefined;
}
