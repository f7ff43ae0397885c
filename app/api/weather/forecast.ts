import type { Condition } from "../../shared/schema-enums.generated";

/** A forecast as the API keeps it: metric units, times as UTC epoch seconds, dates local to the place. */
export type CurrentConditions = {
  time: number;
  weatherCode: number;
  isDay: boolean;
  temperature: number;
  apparentTemperature: number;
  precipitation: number;
  windSpeed: number;
  windGusts: number;
  // Asked for since issue 17: null where the provider has none, absent in forecasts cached from before.
  /** Degrees the wind comes from (0 = north). */
  windDirection?: number | null;
  /** Relative humidity, %. */
  humidity?: number | null;
  dewPoint?: number | null;
  /** Sea-level pressure, hPa. */
  pressure?: number | null;
  /** Metres. */
  visibility?: number | null;
};

export type HourlyForecast = {
  time: number;
  weatherCode: number;
  isDay: boolean;
  temperature: number;
  apparentTemperature: number;
  precipitation: number;
  precipitationProbability: number;
  snowfall: number;
  windSpeed: number;
  windGusts: number;
  /** Degrees the wind comes from; absent in forecasts cached before the hourly strip showed it. */
  windDirection?: number | null;
  uvIndex: number;
};

export type DailyForecast = {
  date: string;
  weatherCode: number;
  temperatureMax: number;
  temperatureMin: number;
  apparentTemperatureMax: number;
  apparentTemperatureMin: number;
  precipitationSum: number;
  precipitationProbabilityMax: number;
  snowfallSum: number;
  windSpeedMax: number;
  windGustsMax: number;
  uvIndexMax: number;
  sunrise: number;
  sunset: number;
  /** Seconds of daylight. */
  daylightDuration?: number | null;
};

/** A quarter hour's precipitation (mm), from its start (epoch seconds). */
export type QuarterHourPrecipitation = { time: number; precipitation: number };

export type Forecast = {
  latitude: number;
  longitude: number;
  timeZone: string;
  utcOffsetSeconds: number;
  current: CurrentConditions;
  hourly: HourlyForecast[];
  daily: DailyForecast[];
  /** The next hours in quarter hours (Open-Meteo's minutely_15); absent in forecasts cached from before. */
  minutely15?: QuarterHourPrecipitation[];
};

export type Coordinate = { latitude: number; longitude: number };

/** Forecasts are cached per coordinate rounded to 0.01° (about 1 km). */
export function roundCoordinate({ latitude, longitude }: Coordinate): Coordinate {
  return { latitude: Math.round(latitude * 100) / 100, longitude: Math.round(longitude * 100) / 100 };
}

export function coordinateKey(coordinate: Coordinate): string {
  const { latitude, longitude } = roundCoordinate(coordinate);
  return `${latitude.toFixed(2)},${longitude.toFixed(2)}`;
}

/** WMO weather interpretation codes (Open-Meteo's `weather_code`) as conditions. */
export function conditionOf(code: number): Condition {
  if (code === 0) return "CLEAR";
  if (code === 1) return "MAINLY_CLEAR";
  if (code === 2) return "PARTLY_CLOUDY";
  if (code === 3) return "OVERCAST";
  if (code === 45 || code === 48) return "FOG";
  if (code >= 51 && code <= 55) return "DRIZZLE";
  if (code === 56 || code === 57) return "FREEZING_DRIZZLE";
  if (code >= 61 && code <= 65) return "RAIN";
  if (code === 66 || code === 67) return "FREEZING_RAIN";
  if (code >= 71 && code <= 75) return "SNOW";
  if (code === 77) return "SNOW_GRAINS";
  if (code >= 80 && code <= 82) return "RAIN_SHOWERS";
  if (code === 85 || code === 86) return "SNOW_SHOWERS";
  if (code === 95) return "THUNDERSTORM";
  if (code === 96 || code === 99) return "THUNDERSTORM_WITH_HAIL";
  return "UNKNOWN";
}
