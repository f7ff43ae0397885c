import * as z from "zod/mini";

/** True for an IANA time zone the runtime knows, in any case ("europe/berlin"). */
export function isKnownTimeZone(value: string): boolean {
  const trimmed = value.trim();
  if (trimmed.length === 0 || trimmed.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: trimmed });
    return true;
  } catch {
    return false;
  }
}

const localTime = z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, "TIME_INVALID"));

/**
 * updateSettings' input (every field optional: a change names only what it changes), and
 * the preferences form's, which saves one choice at a time. Enums are the GraphQL schema's to check.
 */
export const settingsInput = z.object({
  language: z.nullish(z.string()),
  timeZone: z.nullish(z.string().check(z.refine(isKnownTimeZone, "TIME_ZONE_UNKNOWN"))),
  hour12: z.nullish(z.boolean()),
  temperatureUnit: z.nullish(z.string()),
  windSpeedUnit: z.nullish(z.string()),
  precipitationUnit: z.nullish(z.string()),
  quietHoursEnabled: z.nullish(z.boolean()),
  quietFrom: z.nullish(localTime),
  quietTo: z.nullish(localTime),
  pushEnabled: z.nullish(z.boolean()),
});

export type SettingsInput = z.input<typeof settingsInput>;
