import { setTimeout as wait } from "node:timers/promises";
import pRetry from "p-retry";
import { noMetrics, type ApiMetrics } from "../metrics.server";
import {
  AIR_QUALITY_CURRENT,
  AIR_QUALITY_DAYS,
  AIR_QUALITY_HOURLY,
  parseAirQuality,
  type AirQuality,
  type RawAirQuality,
} from "./air-quality";
import type { Coordinate, Forecast } from "./forecast";

/** Open-Meteo's forecast variables this app asks for; arrays come back parallel to `time`. */
const HOURLY = [
  "weather_code",
  "is_day",
  "temperature_2m",
  "apparent_temperature",
  "precipitation",
  "precipitation_probability",
  "snowfall",
  "wind_speed_10m",
  "wind_gusts_10m",
  "wind_direction_10m",
  "uv_index",
] as const;
const DAILY = [
  "weather_code",
  "temperature_2m_max",
  "temperature_2m_min",
  "apparent_temperature_max",
  "apparent_temperature_min",
  "precipitation_sum",
  "precipitation_probability_max",
  "snowfall_sum",
  "wind_speed_10m_max",
  "wind_gusts_10m_max",
  "uv_index_max",
  "sunrise",
  "sunset",
  "daylight_duration",
] as const;
const CURRENT = [
  "weather_code",
  "is_day",
  "temperature_2m",
  "apparent_temperature",
  "precipitation",
  "wind_speed_10m",
  "wind_gusts_10m",
  "wind_direction_10m",
  "relative_humidity_2m",
  "dew_point_2m",
  "pressure_msl",
  "visibility",
] as const;

export const FORECAST_DAYS = 8;
/** How long an air-quality call may take (forecasts: 10 s, three tries). */
export const AIR_QUALITY_TIMEOUT_MS = 3000;
/** Quarter hours of precipitation asked for: 6 hours, so a forecast cached an hour or two still covers the next 2. */
export const NOWCAST_STEPS = 24;

export class UpstreamError extends Error {
  constructor(
    message: string,
    /** The answer's status; null when there was no answer (network failure, timeout). */
    readonly status: number | null,
    /** The answer's Retry-After in seconds, 0 when it gave none. */
    readonly retryAfterSeconds = 0,
  ) {
    super(message);
    this.name = "UpstreamError";
  }
}

export type GeocodedLocation = {
  id: number;
  name: string;
  latitude: number;
  longitude: number;
  timezone?: string;
  country?: string;
  country_code?: string;
  admin1?: string;
  population?: number;
};

type Series = Record<string, number[] | undefined> & { time: number[] };
type RawForecast = {
  latitude: number;
  longitude: number;
  timezone: string;
  utc_offset_seconds: number;
  current: Record<string, number> & { time: number };
  hourly: Series;
  daily: Series;
  minutely_15?: Series;
};

/** Open-Meteo's APIs this app calls, as the upstream metric names them. */
type WeatherEndpoint = "forecast" | "search" | "air-quality";

export type OpenMeteoOptions = {
  forecastUrl: string;
  geocodingUrl: string;
  /** The air-quality API's base (a host of its own at Open-Meteo). */
  airQualityUrl: string;
  fetch?: typeof fetch;
  /** Attempts for 429 / 5xx / network failures, the first included. */
  attempts?: number;
  /** The first retry's shortest wait (later ones double; each up to twice as long at random); tests pass 0. */
  retryDelayMs?: number;
  timeoutMs?: number;
  /** Counts each HTTP request, its duration (to the answer's headers) and whether it succeeded. */
  metrics?: ApiMetrics;
};

const numberAt = (series: Series, name: string, index: number) => Number(series[name]?.[index] ?? 0);
/** A value the provider may leave out (null where a model has none, as visibility in some regions). */
const optionalNumber = (value: number | null | undefined) => (typeof value === "number" && Number.isFinite(value) ? value : null);

function localDate(epochSeconds: number, offsetSeconds: number): string {
  return new Date((epochSeconds + offsetSeconds) * 1000).toISOString().slice(0, 10);
}

export function parseForecast(raw: RawForecast): Forecast {
  const { hourly, daily, current } = raw;
  if (!hourly?.time || !daily?.time || !current) throw new UpstreamError("Open-Meteo answered without forecast data", 200);
  return {
    latitude: raw.latitude,
    longitude: raw.longitude,
    timeZone: raw.timezone,
    utcOffsetSeconds: raw.utc_offset_seconds,
    current: {
      time: current.time,
      weatherCode: Number(current.weather_code ?? 0),
      isDay: Number(current.is_day ?? 1) === 1,
      temperature: Number(current.temperature_2m ?? 0),
      apparentTemperature: Number(current.apparent_temperature ?? 0),
      precipitation: Number(current.precipitation ?? 0),
      windSpeed: Number(current.wind_speed_10m ?? 0),
      windGusts: Number(current.wind_gusts_10m ?? 0),
      windDirection: optionalNumber(current.wind_direction_10m),
      humidity: optionalNumber(current.relative_humidity_2m),
      dewPoint: optionalNumber(current.dew_point_2m),
      pressure: optionalNumber(current.pressure_msl),
      visibility: optionalNumber(current.visibility),
    },
    hourly: hourly.time.map((time, i) => ({
      time,
      weatherCode: numberAt(hourly, "weather_code", i),
      isDay: numberAt(hourly, "is_day", i) === 1,
      temperature: numberAt(hourly, "temperature_2m", i),
      apparentTemperature: numberAt(hourly, "apparent_temperature", i),
      precipitation: numberAt(hourly, "precipitation", i),
      precipitationProbability: numberAt(hourly, "precipitation_probability", i),
      snowfall: numberAt(hourly, "snowfall", i),
      windSpeed: numberAt(hourly, "wind_speed_10m", i),
      windGusts: numberAt(hourly, "wind_gusts_10m", i),
      windDirection: optionalNumber(hourly.wind_direction_10m?.[i]),
      uvIndex: numberAt(hourly, "uv_index", i),
    })),
    daily: daily.time.map((time, i) => ({
      date: localDate(time, raw.utc_offset_seconds),
      weatherCode: numberAt(daily, "weather_code", i),
      temperatureMax: numberAt(daily, "temperature_2m_max", i),
      temperatureMin: numberAt(daily, "temperature_2m_min", i),
      apparentTemperatureMax: numberAt(daily, "apparent_temperature_max", i),
      apparentTemperatureMin: numberAt(daily, "apparent_temperature_min", i),
      precipitationSum: numberAt(daily, "precipitation_sum", i),
      precipitationProbabilityMax: numberAt(daily, "precipitation_probability_max", i),
      snowfallSum: numberAt(daily, "snowfall_sum", i),
      windSpeedMax: numberAt(daily, "wind_speed_10m_max", i),
      windGustsMax: numberAt(daily, "wind_gusts_10m_max", i),
      uvIndexMax: numberAt(daily, "uv_index_max", i),
      sunrise: numberAt(daily, "sunrise", i),
      sunset: numberAt(daily, "sunset", i),
      daylightDuration: optionalNumber(daily.daylight_duration?.[i]),
    })),
    minutely15: (raw.minutely_15?.time ?? []).map((time, i) => ({ time, precipitation: numberAt(raw.minutely_15!, "precipitation", i) })),
  };
}

/** Open-Meteo over HTTP: forecasts for many coordinates in one call, and place search. */
export function createOpenMeteoClient(options: OpenMeteoOptions) {
  const fetchImpl = options.fetch ?? fetch;
  const attempts = options.attempts ?? 3;
  const retryDelayMs = options.retryDelayMs ?? 250;
  const timeoutMs = options.timeoutMs ?? 10_000;

  const metrics = options.metrics ?? noMetrics;

  /** One HTTP request to Open-Meteo, counted with its outcome (a 4xx answer is an "error" too). */
  async function call(endpoint: WeatherEndpoint, url: URL, timeout: number): Promise<Response> {
    const started = performance.now();
    let ok = false;
    try {
      const response = await fetchImpl(url, { signal: AbortSignal.timeout(timeout), headers: { accept: "application/json" } });
      ok = response.ok;
      return response;
    } finally {
      metrics.weatherCall(endpoint, ok ? "ok" : "error", (performance.now() - started) / 1000);
    }
  }

  /** One try: the answer's JSON, or an UpstreamError. */
  async function getJsonOnce(endpoint: WeatherEndpoint, url: URL, timeout: number): Promise<unknown> {
    let response: Response;
    try {
      response = await call(endpoint, url, timeout);
    } catch (error) {
      throw new UpstreamError(`Open-Meteo could not be reached: ${(error as Error).message}`, null);
    }
    if (mayRetry(response.status)) {
      await response.body?.cancel();
      throw new UpstreamError(`Open-Meteo answered ${response.status}`, response.status, Number(response.headers.get("retry-after")) || 0);
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new UpstreamError(`Open-Meteo answered ${response.status} with a body that is not JSON`, response.status);
    }
    if (!response.ok) {
      const reason = (body as { reason?: string } | null)?.reason ?? `status ${response.status}`;
      throw new UpstreamError(`Open-Meteo refused the request: ${reason}`, response.status);
    }
    return body;
  }

  /** Tries again after a network failure, 429 or 5xx (nothing else): 250 ms · 2^n with jitter between tries. */
  function getJson(
    endpoint: WeatherEndpoint,
    url: URL,
    { tries = attempts, timeout = timeoutMs }: { tries?: number; timeout?: number } = {},
  ): Promise<unknown> {
    return pRetry(() => getJsonOnce(endpoint, url, timeout), {
      retries: tries - 1,
      minTimeout: retryDelayMs,
      factor: 2,
      randomize: true,
      shouldRetry: ({ error }) => error instanceof UpstreamError && (error.status === null || mayRetry(error.status)),
      // p-retry has no delay of the server's choosing: a Retry-After (capped at 5 s, a page is waiting) comes before its own.
      onFailedAttempt: async ({ error, retriesLeft }) => {
        if (retriesLeft > 0 && error instanceof UpstreamError && error.retryAfterSeconds > 0) {
          await wait(Math.min(error.retryAfterSeconds * 1000, 5000));
        }
      },
    });
  }

  return {
    /** One request for all coordinates; the result is in the same order. */
    async forecasts(coordinates: Coordinate[]): Promise<Forecast[]> {
      if (coordinates.length === 0) return [];
      const url = new URL(`${options.forecastUrl}/v1/forecast`);
      url.searchParams.set("latitude", coordinates.map((c) => c.latitude).join(","));
      url.searchParams.set("longitude", coordinates.map((c) => c.longitude).join(","));
      url.searchParams.set("current", CURRENT.join(","));
      url.searchParams.set("hourly", HOURLY.join(","));
      url.searchParams.set("daily", DAILY.join(","));
      url.searchParams.set("timezone", "auto");
      url.searchParams.set("timeformat", "unixtime");
      url.searchParams.set("forecast_days", String(FORECAST_DAYS));
      url.searchParams.set("minutely_15", "precipitation");
      url.searchParams.set("forecast_minutely_15", String(NOWCAST_STEPS));
      const body = await getJson("forecast", url);
      const list = (Array.isArray(body) ? body : [body]) as RawForecast[];
      if (list.length !== coordinates.length) {
        throw new UpstreamError(`Open-Meteo answered ${list.length} forecasts for ${coordinates.length} places`, 200);
      }
      return list.map(parseForecast);
    },

    /** Air quality for all coordinates in one request, in the same order (a list answers several, an object one). */
    async airQuality(coordinates: Coordinate[]): Promise<AirQuality[]> {
      if (coordinates.length === 0) return [];
      const url = new URL(`${options.airQualityUrl}/v1/air-quality`);
      url.searchParams.set("latitude", coordinates.map((c) => c.latitude).join(","));
      url.searchParams.set("longitude", coordinates.map((c) => c.longitude).join(","));
      url.searchParams.set("current", AIR_QUALITY_CURRENT.join(","));
      url.searchParams.set("hourly", AIR_QUALITY_HOURLY.join(","));
      url.searchParams.set("timezone", "auto");
      url.searchParams.set("timeformat", "unixtime");
      url.searchParams.set("forecast_days", String(AIR_QUALITY_DAYS));
      // Asked once, briefly: a page waits for every card's line, and the line is the card's least part
      // (a cached report is served meanwhile, and the card shows the weather without one).
      const body = await getJson("air-quality", url, { tries: 1, timeout: Math.min(timeoutMs, AIR_QUALITY_TIMEOUT_MS) });
      const list = (Array.isArray(body) ? body : [body]) as RawAirQuality[];
      if (list.length !== coordinates.length) {
        throw new UpstreamError(`Open-Meteo answered ${list.length} air-quality reports for ${coordinates.length} places`, 200);
      }
      return list.map((raw) => {
        const parsed = parseAirQuality(raw);
        if (!parsed) throw new UpstreamError("Open-Meteo answered without air-quality data", 200);
        return parsed;
      });
    },

    async search(name: string, count: number, language: string): Promise<GeocodedLocation[]> {
      const url = new URL(`${options.geocodingUrl}/v1/search`);
      url.searchParams.set("name", name);
      url.searchParams.set("count", String(count));
      url.searchParams.set("language", language);
      url.searchParams.set("format", "json");
      const body = (await getJson("search", url)) as { results?: GeocodedLocation[] };
      return body.results ?? [];
    },
  };
}

export type OpenMeteoClient = ReturnType<typeof createOpenMeteoClient>;

/** Answers worth asking again for: too many requests, and the server's own failures. */
function mayRetry(status: number): boolean {
  return status === 429 || status >= 500;
}
