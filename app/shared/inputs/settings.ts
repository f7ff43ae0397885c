import { z } from "zod";

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

const localTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "TIME_INVALID");

/**
 * updateSettings' input (every field optional: a change names only what it changes), and
 * the preferences form's, which saves one choice at a time. Enums are the GraphQL schema's to check.
 */
export const settingsInput = z.object({
  language: z.string().nullish(),
  timeZone: z.string().refine(isKnownTimeZone, "TIME_ZONE_UNKNOWN").nullish(),
  hour12: z.boolean().nullish(),
  temperatureUnit: z.string().nullish(),
  windSpeedUnit: z.string().nullish(),
  precipitationUnit: z.string().nullish(),
  quietHoursEnabled: z.boolean().nullish(),
  quietFrom: localTime.nullish(),
  quietTo: localTime.nullish(),
  pushEnabled: z.boolean().nullish(),
});

export type SettingsInput = z.input<typeof settingsInput>;
