// What each GraphQL type's resolvers receive as their parent (codegen.ts `mappers`): the database row, or what a
// service hands out. Field resolvers turn them into the schema's fields; nothing is converted ahead of time.
import type { Condition } from "../../shared/schema-enums.generated";
import type {
  AlertRuleTable,
  BriefingTable,
  MessageTable,
  PlaceTable,
  PushSubscriptionTable,
  SessionTable,
  SettingsTable,
  UserTable,
} from "../db/tables";
import type { AirQuality } from "../weather/air-quality";
import type { CachedResult } from "../weather/coordinate-cache.server";
import type { Coordinate, Forecast } from "../weather/forecast";
import type { ForecastResult } from "../weather/forecast-service.server";
import type { GeocodedLocation } from "../weather/open-meteo.server";
import type { OfficialWarning } from "../warnings/official-warning.server";

export type UserMapper = Pick<UserTable, "id" | "email" | "created_at">;
export type SettingsMapper = SettingsTable;
export type PlaceMapper = PlaceTable;
export type LocationMapper = GeocodedLocation;
export type MessageMapper = MessageTable;
export type BriefingMapper = BriefingTable;
export type AlertRuleMapper = AlertRuleTable;
/** A live session as the sessions list reads it, with when it was last used (null: not since it was opened). */
export type AccountSessionMapper = Pick<SessionTable, "id" | "created_at" | "expires_at" | "user_agent"> & { last_seen_at: string | null };
export type PushEndpointMapper = Pick<PushSubscriptionTable, "endpoint" | "created_at">;

/** A forecast for a place (keyed by the place) or for a coordinate; `at` is the coordinate asked for (its air quality's). */
export type WeatherMapper = {
  id: string;
  result: ForecastResult;
  at: Coordinate;
  /** The air there, asked for beside the forecast when the operation wants it (weather.server.ts). */
  air?: Promise<CachedResult<AirQuality>>;
};
/** A report of the air at the weather's place. */
export type AirQualityMapper = { id: string; result: CachedResult<AirQuality> };
/** A forecast's hours and days, built once per forecast (weather.server.ts caches them): ISO times, conditions. */
export type CurrentConditionsMapper = Omit<Forecast["current"], "time"> & {
  id: string;
  time: string;
  condition: Condition;
  uvIndex: number;
};
export type HourlyForecastMapper = Omit<Forecast["hourly"][number], "time"> & { id: string; time: string; condition: Condition };
export type DailyForecastMapper = Omit<Forecast["daily"][number], "sunrise" | "sunset"> & {
  id: string;
  condition: Condition;
  sunrise: string;
  sunset: string;
};

/** A place's official warnings as its resolver found them (warnings.server.ts): cancelled ones already left out. */
export type PlaceWarningsMapper = {
  coverage: "COVERED" | "NOT_COVERED" | "UNAVAILABLE";
  service: string | null;
  fetchedAt: Date | null;
  stale: boolean;
  warnings: readonly OfficialWarning[];
};
/** One warning as the warnings layer gives it. */
export type OfficialWarningMapper = OfficialWarning;
