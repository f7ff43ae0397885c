import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A loopback fake of Open-Meteo's forecast, geocoding and air-quality APIs, speaking their
 * wire format (`timeformat=unixtime`, a JSON array for several coordinates, 400
 * `{"error":true,"reason"}`, `*_units` beside the values). Its data is deterministic: a
 * function of coordinate and time. Tests can count its calls and make it fail on demand
 * (429, 500, garbage); the air-quality API fails on its own (its failures are not the forecast's).
 */

export type FakeCity = {
  id: number;
  name: string;
  latitude: number;
  longitude: number;
  timezone: string;
  country: string;
  country_code: string;
  admin1: string;
  population: number;
};

export const FAKE_CITIES: FakeCity[] = [
  {
    id: 2950159,
    name: "Berlin",
    latitude: 52.52437,
    longitude: 13.41053,
    timezone: "Europe/Berlin",
    country: "Germany",
    country_code: "DE",
    admin1: "Land Berlin",
    population: 3426354,
  },
  {
    id: 2657896,
    name: "Zurich",
    latitude: 47.36667,
    longitude: 8.55,
    timezone: "Europe/Zurich",
    country: "Switzerland",
    country_code: "CH",
    admin1: "Zurich",
    population: 341730,
  },
  {
    id: 2988507,
    name: "Paris",
    latitude: 48.85341,
    longitude: 2.3488,
    timezone: "Europe/Paris",
    country: "France",
    country_code: "FR",
    admin1: "Île-de-France",
    population: 2138551,
  },
  {
    id: 3117735,
    name: "Madrid",
    latitude: 40.4165,
    longitude: -3.70256,
    timezone: "Europe/Madrid",
    country: "Spain",
    country_code: "ES",
    admin1: "Madrid",
    population: 3255944,
  },
  {
    id: 2643743,
    name: "London",
    latitude: 51.50853,
    longitude: -0.12574,
    timezone: "Europe/London",
    country: "United Kingdom",
    country_code: "GB",
    admin1: "England",
    population: 8961989,
  },
  {
    id: 5128581,
    name: "New York",
    latitude: 40.71427,
    longitude: -74.00597,
    timezone: "America/New_York",
    country: "United States",
    country_code: "US",
    admin1: "New York",
    population: 8804190,
  },
  {
    id: 2147714,
    name: "Sydney",
    latitude: -33.86785,
    longitude: 151.20732,
    timezone: "Australia/Sydney",
    country: "Australia",
    country_code: "AU",
    admin1: "New South Wales",
    population: 4627345,
  },
  {
    id: 3413829,
    name: "Reykjavík",
    latitude: 64.13548,
    longitude: -21.89541,
    timezone: "Atlantic/Reykjavik",
    country: "Iceland",
    country_code: "IS",
    admin1: "Capital Region",
    population: 118918,
  },
];

export type FailureMode = number | "garbage";

/** Test-controlled weather: values to use instead of the generated ones for an hour (epoch seconds). */
export type Scenario = (latitude: number, longitude: number, time: number) => Partial<Record<string, number>> | undefined;

export type FakeOpenMeteo = {
  url: string;
  calls: { forecast: number; geocoding: number; airQuality: number };
  /** Coordinates of every air-quality call, one list per call. */
  airQualityRequests: Array<Array<{ latitude: number; longitude: number }>>;
  /** Replaces generated air-quality values for an hour (e.g. `{ us_aqi: 180 }`); undefined restores the default air. */
  setAirQualityScenario: (scenario: Scenario | undefined) => void;
  /** The next `count` air-quality calls answer with this status, or with a body that is not JSON. */
  failAirQualityNext: (mode: FailureMode, count?: number) => void;
  /** Coordinates of every forecast call, one list per call. */
  forecastRequests: Array<Array<{ latitude: number; longitude: number }>>;
  /** Replaces generated hourly values (e.g. `{ wind_gusts_10m: 70 }`); undefined restores the default weather. */
  setScenario: (scenario: Scenario | undefined) => void;
  /** The next `count` calls (either endpoint) answer with this status, or with a body that is not JSON. */
  failNext: (mode: FailureMode, count?: number) => void;
  /**
   * Holds back the answers to forecast calls for any coordinate `matches` picks until the
   * returned function is called (a slow upstream, for a test to act while a call is under way).
   */
  holdForecasts: (matches: (latitude: number, longitude: number) => boolean) => () => void;
  reset: () => void;
  close: () => Promise<void>;
};

function nearestCity(latitude: number, longitude: number): FakeCity | undefined {
  return FAKE_CITIES.find((city) => Math.abs(city.latitude - latitude) < 0.5 && Math.abs(city.longitude - longitude) < 0.5);
}

function offsetSeconds(timeZone: string, at: Date): number {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" }).formatToParts(at);
  const name = parts.find((part) => part.type === "timeZoneName")?.value ?? "GMT";
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  return match ? (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 3600 + Number(match[3]) * 60) : 0;
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Deterministic weather: a daily temperature wave around a latitude-based mean, rain in some hours. */
export function fakeForecast(latitude: number, longitude: number, days: number, now: Date, scenario?: Scenario, minutelySteps = 0) {
  const timezone = nearestCity(latitude, longitude)?.timezone ?? "GMT";
  const offset = offsetSeconds(timezone, now);
  const localMidnight = Math.floor((now.getTime() / 1000 + offset) / 86_400) * 86_400 - offset;
  const mean = 25 - Math.abs(latitude) * 0.35;
  const seed = Math.abs(Math.round(latitude * 100) * 31 + Math.round(longitude * 100) * 17);
  const hours = Array.from({ length: days * 24 }, (_, i) => localMidnight + i * 3600);
  const hourly = hours.map((time, i) => ({ ...generatedHour(time, i), ...scenario?.(latitude, longitude, time) }));
  function generatedHour(time: number, i: number) {
    const localHour = ((time + offset) / 3600) % 24;
    const temperature = round(mean + 6 * Math.sin(((localHour - 9) / 24) * 2 * Math.PI) + ((seed + i) % 5) - 2);
    const wet = (seed + Math.floor(i / 6)) % 4 === 0;
    return {
      time,
      weather_code: wet ? ((seed + i) % 7 === 0 ? 95 : 61) : [0, 1, 2, 3][(seed + Math.floor(i / 3)) % 4]!,
      is_day: localHour >= 7 && localHour < 19 ? 1 : 0,
      temperature_2m: temperature,
      apparent_temperature: round(temperature - 2),
      precipitation: wet ? round(0.4 + ((seed + i) % 3) * 0.7) : 0,
      precipitation_probability: wet ? 60 + ((seed + i) % 4) * 10 : (seed + i) % 20,
      snowfall: temperature < 0 && wet ? 0.5 : 0,
      wind_speed_10m: round(8 + ((seed + i * 7) % 25)),
      wind_gusts_10m: round(15 + ((seed + i * 11) % 55)),
      uv_index: localHour >= 9 && localHour <= 16 ? round(Math.max(0, 6 - Math.abs(latitude) / 12), 2) : 0,
      wind_direction_10m: (seed * 7 + i * 15) % 360,
      relative_humidity_2m: wet ? 85 + ((seed + i) % 10) : 55 + ((seed + i) % 25),
      dew_point_2m: round(temperature - (wet ? 2 : 8)),
      pressure_msl: round(1013 + ((seed + i) % 15) - 7, 1),
      visibility: wet ? 8_000 : 24_140,
    };
  }
  // Days start by the one offset of the request, as Open-Meteo's do, but the sun rises by the zone's own clock: on the
  // day the clocks change, 7:00 is an hour away from midnight + 7 h.
  const atLocalHour = (dayStart: number, hour: number) => {
    const guess = dayStart + hour * 3600;
    return guess - (offsetSeconds(timezone, new Date(guess * 1000)) - offset);
  };
  const series = (name: keyof (typeof hourly)[number]) => hourly.map((hour) => hour[name]);
  const daily = Array.from({ length: days }, (_, day) => {
    const slice = hourly.slice(day * 24, day * 24 + 24);
    const max = (name: keyof (typeof slice)[number]) => Math.max(...slice.map((hour) => Number(hour[name])));
    const min = (name: keyof (typeof slice)[number]) => Math.min(...slice.map((hour) => Number(hour[name])));
    const sum = (name: keyof (typeof slice)[number]) => round(slice.reduce((total, hour) => total + Number(hour[name]), 0));
    return {
      time: localMidnight + day * 86_400,
      weather_code: max("weather_code"),
      temperature_2m_max: max("temperature_2m"),
      temperature_2m_min: min("temperature_2m"),
      apparent_temperature_max: max("apparent_temperature"),
      apparent_temperature_min: min("apparent_temperature"),
      precipitation_sum: sum("precipitation"),
      precipitation_probability_max: max("precipitation_probability"),
      snowfall_sum: sum("snowfall"),
      wind_speed_10m_max: max("wind_speed_10m"),
      wind_gusts_10m_max: max("wind_gusts_10m"),
      uv_index_max: max("uv_index"),
      sunrise: atLocalHour(localMidnight + day * 86_400, 7),
      sunset: atLocalHour(localMidnight + day * 86_400, 17),
      daylight_duration: 10 * 3600,
    };
  });
  const dailySeries = (name: keyof (typeof daily)[number]) => daily.map((day) => day[name]);
  // Quarter hours from the one now running: an hour's rain falls in its first three quarters.
  const quarterStart = Math.floor(now.getTime() / 900_000) * 900;
  const quarters = Array.from({ length: minutelySteps }, (_, i) => quarterStart + i * 900);
  const quarterRain = (time: number) => {
    const hour = hourly.find((candidate) => candidate.time === Math.floor(time / 3600) * 3600);
    return hour && hour.precipitation > 0 && (time % 3600) / 900 < 3 ? round(hour.precipitation / 3, 2) : 0;
  };
  const nowHour = Math.floor(now.getTime() / 3_600_000) * 3600;
  const current = hourly.find((hour) => hour.time === nowHour) ?? hourly[0]!;
  return {
    latitude: round(latitude, 4),
    longitude: round(longitude, 4),
    generationtime_ms: 0.5,
    utc_offset_seconds: offset,
    timezone,
    timezone_abbreviation: timezone,
    elevation: 40,
    current: {
      time: nowHour,
      interval: 900,
      weather_code: current.weather_code,
      is_day: current.is_day,
      temperature_2m: current.temperature_2m,
      apparent_temperature: current.apparent_temperature,
      precipitation: current.precipitation,
      wind_speed_10m: current.wind_speed_10m,
      wind_gusts_10m: current.wind_gusts_10m,
      wind_direction_10m: current.wind_direction_10m,
      relative_humidity_2m: current.relative_humidity_2m,
      dew_point_2m: current.dew_point_2m,
      pressure_msl: current.pressure_msl,
      visibility: current.visibility,
    },
    hourly: Object.fromEntries(
      ["time", ...Object.keys(hourly[0]!).filter((key) => key !== "time")].map((key) => [key, series(key as never)]),
    ),
    daily: Object.fromEntries(Object.keys(daily[0]!).map((key) => [key, dailySeries(key as never)])),
    ...(minutelySteps > 0 ? { minutely_15: { time: quarters, precipitation: quarters.map(quarterRain) } } : {}),
  };
}

/** Where the provider has pollen: its European model's area (CAMS Europe), roughly. */
const inEurope = (latitude: number, longitude: number) => latitude >= 30 && latitude <= 72 && longitude >= -25 && longitude <= 45;

const POLLEN = ["alder_pollen", "birch_pollen", "grass_pollen", "mugwort_pollen", "olive_pollen", "ragweed_pollen"] as const;
const AIR_UNITS: Record<string, string> = {
  time: "unixtime",
  interval: "seconds",
  european_aqi: "EAQI",
  us_aqi: "USAQI",
  pm2_5: "μg/m³",
  pm10: "μg/m³",
  ...Object.fromEntries(POLLEN.map((name) => [name, "grains/m³"])),
};

/**
 * Deterministic air, as Open-Meteo's air-quality API answers it: only the variables asked for
 * (`current`, `hourly`), hours from local midnight, pollen only in Europe (null elsewhere).
 */
export function fakeAirQuality(
  latitude: number,
  longitude: number,
  options: { days: number; now: Date; current: string[]; hourly: string[]; scenario?: Scenario },
) {
  const timezone = nearestCity(latitude, longitude)?.timezone ?? "GMT";
  const offset = offsetSeconds(timezone, options.now);
  const localMidnight = Math.floor((options.now.getTime() / 1000 + offset) / 86_400) * 86_400 - offset;
  const seed = Math.abs(Math.round(latitude * 100) * 31 + Math.round(longitude * 100) * 17);
  const european = inEurope(latitude, longitude);
  function hour(time: number, i: number): Record<string, number | null | undefined> {
    const pm2_5 = round(4 + ((seed + i) % 12) + ((seed + i) % 7) / 10);
    const values: Record<string, number | null> = {
      european_aqi: 12 + ((seed + i * 3) % 30),
      us_aqi: 20 + ((seed + i * 5) % 45),
      pm2_5,
      pm10: round(pm2_5 * 1.6),
      alder_pollen: european ? 0 : null,
      birch_pollen: european ? round(((seed + i) % 6) * 1.5) : null,
      grass_pollen: european ? round(10 + ((seed + i) % 40)) : null,
      mugwort_pollen: european ? 0 : null,
      olive_pollen: european ? 0 : null,
      ragweed_pollen: european ? 0 : null,
    };
    return { ...values, ...options.scenario?.(latitude, longitude, time) };
  }
  const times = Array.from({ length: options.days * 24 }, (_, i) => localMidnight + i * 3600);
  const hours = times.map(hour);
  const nowHour = Math.floor(options.now.getTime() / 3_600_000) * 3600;
  const current = hours[times.indexOf(nowHour)] ?? hours[0]!;
  const pick = (names: string[], from: Record<string, number | null | undefined>) =>
    Object.fromEntries(names.map((name) => [name, from[name] ?? null]));
  const units = (names: string[]) => Object.fromEntries(names.map((name) => [name, AIR_UNITS[name] ?? "undefined"]));
  return {
    latitude: round(latitude, 4),
    longitude: round(longitude, 4),
    generationtime_ms: 0.3,
    utc_offset_seconds: offset,
    timezone,
    timezone_abbreviation: timezone,
    elevation: 40,
    ...(options.current.length > 0
      ? {
          current_units: units(["time", "interval", ...options.current]),
          current: { time: nowHour, interval: 3600, ...pick(options.current, current) },
        }
      : {}),
    ...(options.hourly.length > 0
      ? {
          hourly_units: units(["time", ...options.hourly]),
          hourly: {
            time: times,
            ...Object.fromEntries(options.hourly.map((name) => [name, hours.map((values) => values[name] ?? null)])),
          },
        }
      : {}),
  };
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
}

export async function startFakeOpenMeteo(options: { port?: number; now?: () => Date } = {}): Promise<FakeOpenMeteo> {
  const now = options.now ?? (() => new Date());
  const failures: FailureMode[] = [];
  const airFailures: FailureMode[] = [];
  let scenario: Scenario | undefined;
  let airScenario: Scenario | undefined;
  const holds = new Set<{ matches: (latitude: number, longitude: number) => boolean; released: Promise<void> }>();
  const state: Pick<FakeOpenMeteo, "calls" | "forecastRequests" | "airQualityRequests"> = {
    calls: { forecast: 0, geocoding: 0, airQuality: 0 },
    forecastRequests: [],
    airQualityRequests: [],
  };

  // Like the real service, answer quickly: a coordinate's forecast is generated once per hour.
  const cache = new Map<string, ReturnType<typeof fakeForecast>>();
  function generated(latitude: number, longitude: number, days: number, quarters: number) {
    if (scenario) return fakeForecast(latitude, longitude, days, now(), scenario, quarters);
    const key = `${latitude},${longitude},${days},${quarters},${Math.floor(now().getTime() / 900_000)}`;
    let forecast = cache.get(key);
    if (!forecast) {
      if (cache.size > 20_000) cache.clear();
      forecast = fakeForecast(latitude, longitude, days, now(), undefined, quarters);
      cache.set(key, forecast);
    }
    return forecast;
  }

  function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://fake.invalid");
    if (url.pathname === "/__control/fail" && req.method === "POST") {
      const mode = url.searchParams.get("mode") ?? "500";
      const count = Number(url.searchParams.get("count") ?? 1);
      // `endpoint=air-quality` fails the air-quality API; otherwise the forecast and search.
      const queue = url.searchParams.get("endpoint") === "air-quality" ? airFailures : failures;
      for (let i = 0; i < count; i++) queue.push(mode === "garbage" ? "garbage" : Number(mode));
      return send(res, 200, { ok: true });
    }
    if (url.pathname === "/__control/calls") return send(res, 200, state);

    const isForecast = url.pathname === "/v1/forecast";
    const isSearch = url.pathname === "/v1/search";
    const isAirQuality = url.pathname === "/v1/air-quality";
    if (!isForecast && !isSearch && !isAirQuality) return send(res, 404, { error: true, reason: "Not Found" });
    if (isForecast) state.calls.forecast++;
    else if (isSearch) state.calls.geocoding++;
    else state.calls.airQuality++;

    const failure = isAirQuality ? airFailures.shift() : failures.shift();
    if (failure === "garbage") {
      res.writeHead(200, { "content-type": "text/html" });
      return res.end("<html>upstream proxy error</html>");
    }
    if (failure !== undefined) {
      if (failure === 429) res.setHeader("retry-after", "0");
      return send(res, failure, { error: true, reason: `Injected failure ${failure}` });
    }

    if (isSearch) {
      const name = (url.searchParams.get("name") ?? "").trim().toLowerCase();
      const count = Number(url.searchParams.get("count") ?? 10);
      if (name.length < 2) return send(res, 200, { generationtime_ms: 0.1 });
      const results = FAKE_CITIES.filter((city) =>
        city.name
          .toLowerCase()
          .normalize("NFD")
          .replace(/\p{Diacritic}/gu, "")
          .startsWith(name.normalize("NFD").replace(/\p{Diacritic}/gu, "")),
      ).slice(0, count);
      return send(res, 200, results.length ? { results, generationtime_ms: 0.1 } : { generationtime_ms: 0.1 });
    }

    const latitudes = (url.searchParams.get("latitude") ?? "").split(",").map(Number);
    const longitudes = (url.searchParams.get("longitude") ?? "").split(",").map(Number);
    const days = Number(url.searchParams.get("forecast_days") ?? 7);
    if (
      latitudes.length !== longitudes.length ||
      latitudes.some((lat) => !Number.isFinite(lat) || lat < -90 || lat > 90) ||
      longitudes.some((lon) => !Number.isFinite(lon) || lon < -180 || lon > 180)
    ) {
      return send(res, 400, { error: true, reason: "Latitude must be in range of -90 to 90°. Given: invalid." });
    }
    if (url.searchParams.get("timeformat") !== "unixtime") {
      return send(res, 400, { error: true, reason: "This fake only speaks timeformat=unixtime" });
    }
    if (isAirQuality) {
      state.airQualityRequests.push(latitudes.map((latitude, i) => ({ latitude, longitude: longitudes[i]! })));
      const names = (parameter: string) => (url.searchParams.get(parameter) ?? "").split(",").filter(Boolean);
      const reports = latitudes.map((latitude, i) =>
        fakeAirQuality(latitude, longitudes[i]!, {
          days: Number(url.searchParams.get("forecast_days") ?? 5),
          now: now(),
          current: names("current"),
          hourly: names("hourly"),
          scenario: airScenario,
        }),
      );
      return send(res, 200, reports.length === 1 ? reports[0] : reports);
    }
    state.forecastRequests.push(latitudes.map((latitude, i) => ({ latitude, longitude: longitudes[i]! })));
    // Quarter hours only when asked for, as the real service: minutely_15=precipitation&forecast_minutely_15=N.
    const quarters =
      url.searchParams.get("minutely_15") === "precipitation" ? Number(url.searchParams.get("forecast_minutely_15") ?? 96) : 0;
    const forecasts = latitudes.map((latitude, i) => generated(latitude, longitudes[i]!, days, quarters));
    const held = [...holds].filter((hold) => latitudes.some((latitude, i) => hold.matches(latitude, longitudes[i]!)));
    if (held.length > 0) {
      void Promise.all(held.map((hold) => hold.released)).then(() => send(res, 200, forecasts.length === 1 ? forecasts[0] : forecasts));
      return;
    }
    return send(res, 200, forecasts.length === 1 ? forecasts[0] : forecasts);
  }

  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get calls() {
      return state.calls;
    },
    get forecastRequests() {
      return state.forecastRequests;
    },
    get airQualityRequests() {
      return state.airQualityRequests;
    },
    setScenario(next) {
      scenario = next;
    },
    setAirQualityScenario(next) {
      airScenario = next;
    },
    failAirQualityNext(mode, count = 1) {
      for (let i = 0; i < count; i++) airFailures.push(mode);
    },
    holdForecasts(matches) {
      let release = () => {};
      const hold = { matches, released: new Promise<void>((resolve) => (release = resolve)) };
      holds.add(hold);
      return () => {
        holds.delete(hold);
        release();
      };
    },
    failNext(mode, count = 1) {
      for (let i = 0; i < count; i++) failures.push(mode);
    },
    reset() {
      failures.length = 0;
      airFailures.length = 0;
      state.calls = { forecast: 0, geocoding: 0, airQuality: 0 };
      state.forecastRequests = [];
      state.airQualityRequests = [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  } satisfies FakeOpenMeteo;
}
