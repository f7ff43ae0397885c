import { aqiOn } from "../../shared/air-quality";
import type { AirQualityScale } from "../../shared/schema-enums.generated";
import type { AirQuality } from "../weather/air-quality";
import type { HourlyForecast } from "../weather/forecast";
import type { AlertHour } from "./alert-evaluator";

/** The forecast's hours with the air-quality index on the reader's scale (null for an hour the report has none for). */
export function withAirQuality(hourly: readonly HourlyForecast[], air: AirQuality, scale: AirQualityScale): AlertHour[] {
  const index = new Map(air.hourly.map((hour) => [hour.time, aqiOn(scale, hour)]));
  return hourly.map((hour) => ({ ...hour, aqi: index.get(hour.time) ?? null }));
}
