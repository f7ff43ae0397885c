import { badInput } from "../errors.server";
import { cacheable, cacheableFields, validUntil } from "../result-cache.server";
import type { GraphQLResolveInfo } from "graphql";
import { limitAnonymousLookup, type ApiContext } from "../context.server";
import { conditionOf, type Coordinate, type Forecast } from "../weather/forecast";
import { pollenCounts } from "../weather/air-quality";
import type { AirQualityMapper, WeatherMapper as WeatherSource } from "./mappers";
import type { AirQualityResolvers, Resolvers, WeatherResolvers } from "./resolvers.generated";
import { selectsField } from "./selects-field";
import { zonedParts } from "../bot/zoned-time";

const iso = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString();
const roundedOrNull = (value: number | null) => (value === null ? null : Math.round(value));

/** When the hour running at `now` began, in epoch milliseconds (UTC, like the forecast's hours). */
const hourStartMs = (now: Date) => Math.floor(now.getTime() / 3_600_000) * 3_600_000;
/** When the hour running at `now` ends. */
const nextHourStart = (now: Date) => hourStartMs(now) + 3_600_000;

/** Index of the hour now running (hourly is sorted by time); -1 when the forecast has ended. */
function currentHourIndex(forecast: Forecast, now: Date): number {
  const hourStart = hourStartMs(now) / 1000;
  let low = 0;
  let high = forecast.hourly.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (forecast.hourly[middle]!.time < hourStart) low = middle + 1;
    else high = middle;
  }
  return low < forecast.hourly.length ? low : -1;
}

/**
 * Asks for the air at a spot as the forecast is asked for, when the operation wants it: its
 * resolver runs only once the forecast is in, and would otherwise start a second round trip
 * upstream then. The air-quality cache joins a page's places in one request; the resolver takes
 * this ask's outcome (a failure is its to answer).
 */
function preloadAirQuality(at: Coordinate, context: ApiContext, info: GraphQLResolveInfo): Pick<WeatherSource, "air"> {
  if (!selectsField(info, "airQuality")) return {};
  const air = context.airQuality.get(at);
  // Its resolver awaits the same promise (one ask, one outcome); until then a failure is not unhandled.
  air.catch(() => {});
  return { air };
}

/** How old a cached air report may be, while the provider fails, and still be shown. */
export const AIR_QUALITY_MAX_AGE_MS = 3 * 3_600_000;

type HourlyView = ReturnType<typeof hourlyView>;

/** The nowcast's 2 hours in quarter hours. */
export const NOWCAST_QUARTERS = 8;
type DailyView = ReturnType<typeof dailyView>;

const hourlyView = (weatherId: string, hour: Forecast["hourly"][number]) => ({
  ...hour,
  id: `${weatherId}:${iso(hour.time)}`,
  time: iso(hour.time),
  condition: conditionOf(hour.weatherCode),
});

const dailyView = (weatherId: string, day: Forecast["daily"][number]) => ({
  ...day,
  id: `${weatherId}:${day.date}`,
  condition: conditionOf(day.weatherCode),
  sunrise: iso(day.sunrise),
  sunset: iso(day.sunset),
});

const currentView = (weatherId: string, forecast: Forecast, hourIndex: number) => ({
  ...forecast.current,
  id: `${weatherId}:current`,
  time: iso(forecast.current.time),
  condition: conditionOf(forecast.current.weatherCode),
  // The provider's "current" block has no UV index; the hour now running does.
  uvIndex: forecast.hourly[hourIndex]?.uvIndex ?? 0,
});

type Views = { hourly: HourlyView[]; daily: DailyView[]; current?: { hourIndex: number; view: ReturnType<typeof currentView> } };

/**
 * A cached forecast is served many times before it is refetched: its GraphQL views are
 * built once per forecast and weather id (the current conditions once per hour), not on
 * every request.
 */
const viewCache = new WeakMap<Forecast, Map<string, Views>>();
function viewsOf({ id, result }: WeatherSource) {
  let byId = viewCache.get(result.forecast);
  if (!byId) {
    byId = new Map();
    viewCache.set(result.forecast, byId);
  }
  let views: Views | undefined = byId.get(id);
  if (!views) {
    views = {
      hourly: result.forecast.hourly.map((hour) => hourlyView(id, hour)),
      daily: result.forecast.daily.map((day) => dailyView(id, day)),
    };
    byId.set(id, views);
  }
  return views;
}

export const weatherResolvers: Resolvers = {
  // Built from the forecast alone; the current hour's views change with the hour.
  Weather: cacheableFields<WeatherResolvers>({
    id: (source) => source.id,
    fetchedAt: (source) => source.result.fetchedAt.toISOString(),
    stale: (source) => source.result.stale,
    timeZone: (source) => source.result.forecast.timeZone,
    current(source, _, context) {
      validUntil(context, nextHourStart(context.now()));
      const views = viewsOf(source);
      const hourIndex = currentHourIndex(source.result.forecast, context.now());
      if (views.current?.hourIndex !== hourIndex) {
        views.current = { hourIndex, view: currentView(source.id, source.result.forecast, hourIndex) };
      }
      return views.current.view;
    },
    hourly(source, { hours }, context) {
      if (typeof hours !== "number" || !Number.isInteger(hours) || hours < 1 || hours > 168)
        throw badInput("hours must be from 1 to 168", "hours");
      validUntil(context, nextHourStart(context.now()));
      const start = currentHourIndex(source.result.forecast, context.now());
      return start === -1 ? [] : viewsOf(source).hourly.slice(start, start + hours);
    },
    nowcast(source, _, context) {
      // Changes with the quarter hour: cached answers last until the next one.
      const quarter = Math.floor(context.now().getTime() / 900_000) * 900;
      validUntil(context, (quarter + 900) * 1000);
      return (source.result.forecast.minutely15 ?? [])
        .filter((step) => step.time >= quarter)
        .slice(0, NOWCAST_QUARTERS)
        .map((step) => ({ time: iso(step.time), precipitation: step.precipitation }));
    },
    async airQuality(source, _, context) {
      let result: AirQualityMapper["result"];
      try {
        result = await (source.air ?? context.airQuality.get(source.at));
      } catch {
        // The card shows the weather without it; asked for again next time.
        validUntil(context, 0);
        return null;
      }
      // A stale report (the provider failing) is asked for again next time, as forecasts are.
      validUntil(context, result.stale ? 0 : result.fetchedAt.getTime() + context.airQuality.ttlMs);
      // The air changes within hours (smoke comes and goes): an older report would tell of air long gone.
      if (result.stale && context.now().getTime() - result.fetchedAt.getTime() > AIR_QUALITY_MAX_AGE_MS) return null;
      return { id: `${source.id}:air`, result } satisfies AirQualityMapper;
    },
    hourlyOn(source, { date }) {
      // The place's clock at each hour, not the provider's one offset: that is the offset when the forecast was
      // fetched, an hour off on the days after a daylight-saving change (open-meteo/open-meteo#261).
      const { timeZone } = source.result.forecast;
      return viewsOf(source).hourly.filter((view) => zonedParts(new Date(view.time), timeZone).date === date);
    },
    daily(source, { days }) {
      if (typeof days !== "number" || !Number.isInteger(days) || days < 1 || days > 8) throw badInput("days must be from 1 to 8", "days");
      return viewsOf(source).daily.slice(0, days);
    },
  }),
  AirQuality: cacheableFields<AirQualityResolvers>({
    id: (source) => source.id,
    fetchedAt: (source) => source.result.fetchedAt.toISOString(),
    stale: (source) => source.result.stale,
    time: (source) => iso(source.result.data.current.time),
    europeanAqi: (source) => roundedOrNull(source.result.data.current.europeanAqi),
    usAqi: (source) => roundedOrNull(source.result.data.current.usAqi),
    pm25: (source) => source.result.data.current.pm2_5,
    pm10: (source) => source.result.data.current.pm10,
    pollen: (source) => pollenCounts(source.result.data.current),
  }),
  Place: {
    weather: cacheable(async (place, _, context, info) => {
      const air = preloadAirQuality(place, context, info);
      const result = await context.forecasts.get(place);
      // A stale forecast (the provider failing) is asked for again next time.
      validUntil(context, result.stale ? 0 : result.fetchedAt.getTime() + context.forecasts.ttlMs);
      return { id: place.id, result, at: place, ...air } satisfies WeatherSource;
    }),
  },
  Query: {
    async weatherAt(_, args, context, info) {
      if (!(args.latitude >= -90 && args.latitude <= 90)) throw badInput("latitude must be between -90 and 90", "latitude");
      if (!(args.longitude >= -180 && args.longitude <= 180)) throw badInput("longitude must be between -180 and 180", "longitude");
      await limitAnonymousLookup(context);
      const air = preloadAirQuality(args, context, info);
      const result = await context.forecasts.get(args);
      return { id: `at:${result.key}`, result, at: args, ...air } satisfies WeatherSource;
    },
  },
};
