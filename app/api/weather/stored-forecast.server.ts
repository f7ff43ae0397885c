import type { Forecast } from "./forecast";

/**
 * A forecast as the cache keeps it in the database: its hours, days and quarter hours as one array per field
 * (Open-Meteo's own layout), not as objects that repeat every field's name. A third of the JSON to build, write and
 * compress: the engine stores every watched place's forecast each time it is refreshed (100,000 places every 15
 * minutes at issue 34's scale), and building that JSON was the biggest part of its own CPU.
 */
type StoredForecast = Omit<Forecast, "hourly" | "daily" | "minutely15"> & {
  /** The stored layout's version: rows written before it have none (objects per hour). */
  columns: 1;
  hourly: Columns;
  daily: Columns;
  minutely15?: Columns;
};

type Columns = Record<string, unknown[]>;

function toColumns(rows: readonly object[]): Columns {
  const columns: Columns = {};
  for (const key of Object.keys(rows[0] ?? {})) columns[key] = rows.map((row) => (row as Record<string, unknown>)[key]);
  return columns;
}

function fromColumns<T>(columns: Columns): T[] {
  const keys = Object.keys(columns);
  const length = keys.length === 0 ? 0 : columns[keys[0]!]!.length;
  const rows: T[] = [];
  for (let index = 0; index < length; index++) {
    const row: Record<string, unknown> = {};
    for (const key of keys) row[key] = columns[key]![index];
    rows.push(row as T);
  }
  return rows;
}

export function encodeForecast({ hourly, daily, minutely15, ...rest }: Forecast): string {
  const stored: StoredForecast = {
    ...rest,
    columns: 1,
    hourly: toColumns(hourly),
    daily: toColumns(daily),
    ...(minutely15 ? { minutely15: toColumns(minutely15) } : {}),
  };
  return JSON.stringify(stored);
}

/** A stored forecast, in either layout (rows cached before this one are objects per hour). */
export function decodeForecast(payload: string): Forecast {
  const parsed = JSON.parse(payload) as Forecast | StoredForecast;
  if (!("columns" in parsed)) return parsed;
  const { columns: _layout, hourly, daily, minutely15, ...rest } = parsed;
  return {
    ...rest,
    hourly: fromColumns(hourly),
    daily: fromColumns(daily),
    ...(minutely15 ? { minutely15: fromColumns(minutely15) } : {}),
  };
}
