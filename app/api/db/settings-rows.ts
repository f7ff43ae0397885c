import { regionalDefaults } from "../../shared/regional-defaults";
import type { SettingsTable } from "./tables";

/**
 * First settings of a new account: the units and clock of the user's region (the UK: °C and
 * mph; the US: °F, mph, inches, 12-hour clock; elsewhere metric), by default the language's
 * own region ("EN_US" → US).
 */
export function defaultSettings(userId: string, language: string, timeZone: string, region?: string | null): SettingsTable {
  const defaults = regionalDefaults(region ?? language.split("_")[1] ?? "US");
  return {
    user_id: userId,
    language,
    time_zone: timeZone,
    hour12: defaults.hour12 ? 1 : 0,
    temperature_unit: defaults.temperatureUnit,
    wind_speed_unit: defaults.windSpeedUnit,
    precipitation_unit: defaults.precipitationUnit,
    quiet_hours_enabled: 0,
    quiet_from: "22:00",
    quiet_to: "07:00",
    push_enabled: 0,
  };
}
