import type { SettingsTable } from "./tables";

/** First settings of a new account: US English gets US units and a 12-hour clock, others metric. */
export function defaultSettings(userId: string, language: string, timeZone: string): SettingsTable {
  const us = language === "EN_US";
  return {
    user_id: userId,
    language,
    time_zone: timeZone,
    hour12: us ? 1 : 0,
    temperature_unit: us ? "FAHRENHEIT" : "CELSIUS",
    wind_speed_unit: us ? "MPH" : "KMH",
    precipitation_unit: us ? "INCH" : "MM",
    quiet_hours_enabled: 0,
    quiet_from: "22:00",
    quiet_to: "07:00",
    push_enabled: 0,
  };
}

/**
 * A settings row as the API shows it (GraphQL `Settings`); the bot reads the same shape
 * for language, time zone, clock and units.
 */
export function settingsView(row: SettingsTable) {
  return {
    id: row.user_id,
    language: row.language,
    timeZone: row.time_zone,
    hour12: row.hour12 === 1,
    temperatureUnit: row.temperature_unit,
    windSpeedUnit: row.wind_speed_unit,
    precipitationUnit: row.precipitation_unit,
    quietHoursEnabled: row.quiet_hours_enabled === 1,
    quietFrom: row.quiet_from,
    quietTo: row.quiet_to,
    pushEnabled: row.push_enabled === 1,
  };
}
