import type { UNSAFE_DataWithResponseInit as DataWithResponseInit } from "react-router";
import { describe, expect, it } from "vitest";
import { validateRoute, type ValidationResult } from "~/lib/route-validation";
import { parseSettingsSection } from "~/lib/settings-section";

function thrownBy(run: () => unknown): DataWithResponseInit<unknown> {
  try {
    run();
  } catch (error) {
    return error as DataWithResponseInit<unknown>;
  }
  throw new Error("nothing was thrown");
}

describe("validateRoute", () => {
  it("returns the value of a valid result", () => {
    expect(validateRoute({ ok: true, value: { id: 7 } })).toEqual({ id: 7 });
  });

  it("throws a 404 route error by default", () => {
    const error = thrownBy(() => validateRoute({ ok: false, message: "No such place" }));
    expect(error.type).toBe("DataWithResponseInit");
    expect(error.init?.status).toBe(404);
    expect(error.data).toEqual({ message: "No such place" });
  });

  it("throws with the validator's status", () => {
    const result: ValidationResult<never> = { ok: false, message: "Bad id", status: 400 };
    const error = thrownBy(() => validateRoute(result));
    expect(error.init?.status).toBe(400);
    expect(error.data).toEqual({ message: "Bad id" });
  });
});

describe("parseSettingsSection", () => {
  const unknown = (section: string) => `Unknown settings section: ${section}`;

  it("accepts no section", () => {
    expect(parseSettingsSection(null, unknown)).toEqual({ ok: true, value: null });
  });

  it.each(["appearance", "language"])("accepts %s", (section) => {
    expect(parseSettingsSection(section, unknown)).toEqual({ ok: true, value: section });
  });

  it.each(["nope", "", "toString"])("rejects %j with the given message", (section) => {
    expect(parseSettingsSection(section, unknown)).toEqual({ ok: false, message: `Unknown settings section: ${section}` });
  });
});
