import * as z from "zod/mini";
import { isLocalTime } from "../local-time";
import { isTimeZone } from "../time-zone";

// The same checks as the TimeZone and LocalTime scalars': a form says at once what the API would refuse.
const localTime = z.string().check(z.refine(isLocalTime, "TIME_INVALID"));

/**
 * updateSettings' input (every field optional: a change names only what it changes), and
 * the preferences form's, which saves one choice at a time. Enums are the GraphQL schema's to check.
 */
export const settingsInput = z.object({
  language: z.nullish(z.string()),
  timeZone: z.nullish(z.string().check(z.refine(isTimeZone, "TIME_ZONE_UNKNOWN"))),
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
