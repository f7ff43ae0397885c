import { data } from "react-router";

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; message: string; status?: number };

/**
 * A route's validator decides whether its URL makes sense; a failure is thrown as a
 * route error with the validator's status, 404 when it names none (docs/product-constants.md).
 */
export function validateRoute<T>(result: ValidationResult<T>): T {
  if (result.ok) return result.value;
  throw data({ message: result.message }, { status: result.status ?? 404 });
}
