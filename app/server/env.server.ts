import { isIP } from "node:net";
import { z } from "zod";

/**
 * The server's configuration, read from the environment once at startup. Every
 * variable has a default that gives a working embedded setup; a bad value stops the
 * server with a message naming the variable, the value and what is expected.
 */

const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

function isProxyAddress(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = "", bits, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  const prefix = Number(bits);
  return Number.isInteger(prefix) && prefix >= 0 && prefix <= (family === 4 ? 32 : 128);
}

/**
 * A comma-separated list of addresses, subnets (CIDR) and Express's names for ranges, as
 * TRUST_PROXY and METRICS_ALLOW take them; null (with an issue naming what is wrong) otherwise.
 */
function addressList(value: string, ctx: z.RefinementCtx, expected: string): string[] | null {
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const bad = entries.filter((entry) => !isProxyAddress(entry));
  if (bad.length === 0 && entries.length > 0) return entries;
  ctx.addIssue({
    code: "custom",
    message:
      `expected ${expected}a comma-separated list of IP addresses, subnets (CIDR) or loopback/linklocal/uniquelocal; ` +
      `"${bad.join(", ")}" is none of these`,
  });
  return null;
}

/** Express's `trust proxy`: false, true, a hop count, or a list of addresses/subnets. */
export type TrustProxy = boolean | number | string[];

const trustProxy = z
  .string()
  .trim()
  .transform((raw, ctx): TrustProxy => {
    const value = raw.toLowerCase();
    if (value === "" || value === "false") return false;
    if (value === "true") return true;
    if (/^\d+$/.test(value)) return Number(value);
    return addressList(value, ctx, "false, true, a hop count, or ") ?? z.NEVER;
  });

/** Where /metrics may be read from: addresses and subnets as TRUST_PROXY takes them, or "none" (the token only). */
const metricsAllow = z
  .string()
  .trim()
  .transform((raw, ctx): string[] => {
    const value = raw.toLowerCase();
    if (value === "none") return [];
    return addressList(value, ctx, '"none" or ') ?? z.NEVER;
  });

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

const port = z
  .string()
  .trim()
  .regex(/^\d+$/, "expected a whole number from 0 to 65535")
  .transform(Number)
  .refine((n) => n <= 65535, "expected a whole number from 0 to 65535");

/** A whole number of requests (0 turns the limit off). */
const requestCount = z
  .string()
  .trim()
  .regex(/^\d+$/, "expected a whole number (0: no limit)")
  .transform(Number)
  .refine((n) => Number.isSafeInteger(n), "expected a whole number (0: no limit)");

/** A whole number from `min` to `max`. */
const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `expected a whole number from ${min} to ${max}`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `expected a whole number from ${min} to ${max}`);

const flag = z
  .enum(["0", "1", "false", "true"], { message: 'expected "1"/"true" or "0"/"false"' })
  .transform((value) => value === "1" || value === "true");

function isHttpUrl(value: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

const httpUrl = (message: string) => z.string().trim().refine(isHttpUrl, message);

/** An SMTP server as nodemailer takes it: smtp://user:pass@host:587 (STARTTLS when offered) or smtps://…:465 (TLS). */
const smtpUrl = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return ["smtp:", "smtps:"].includes(url.protocol) && url.hostname !== "";
    } catch {
      return false;
    }
  }, "expected smtp://user:password@host:port or smtps://user:password@host:port");

/** "Name <address>" or a bare address: what mail goes out From. */
const mailFrom = z
  .string()
  .trim()
  .regex(
    /^(?:[^<>@\r\n]*<[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)$/,
    'expected an address such as "Weatherbot <bot@example.com>"',
  );

const baseUrl = httpUrl("expected an http(s) base URL such as https://api.open-meteo.com").transform((value) => value.replace(/\/+$/, ""));

const envFields = z.object({
  NODE_ENV: z
    .enum(["development", "production", "test"], {
      message: 'expected "development", "production" or "test"',
    })
    // Production unless told otherwise: `npm run dev` says development.
    .default("production"),
  PORT: port.default(3000),
  HOST: z.string().trim().min(1, "expected a host name or IP address to listen on").default("127.0.0.1"),
  TRUST_PROXY: trustProxy.default(false),
  SESSION_SECRET: z.string().min(32, "expected at least 32 characters (for example: openssl rand -hex 32)").optional(),
  /** Where the embedded database and generated keys live. */
  DATA_DIR: z.string().trim().min(1, "expected a directory path").default("./data"),
  /** Unset: SQLite in DATA_DIR. */
  DATABASE_URL: z
    .string()
    .trim()
    .refine((value) => /^(?:sqlite:|postgres(?:ql)?:\/\/)/i.test(value), {
      message: 'expected "sqlite:<path>" or "postgres://user@host:port/database"',
    })
    .optional(),
  /** PostgreSQL only: the most connections the pool keeps. */
  DATABASE_POOL_SIZE: z
    .string()
    .trim()
    .regex(/^\d+$/, "expected a whole number from 1 to 1000")
    .transform(Number)
    .refine((n) => n >= 1 && n <= 1000, "expected a whole number from 1 to 1000")
    .default(10),
  OPEN_METEO_FORECAST_URL: baseUrl.default("https://api.open-meteo.com"),
  OPEN_METEO_GEOCODING_URL: baseUrl.default("https://geocoding-api.open-meteo.com"),
  OPEN_METEO_AIR_QUALITY_URL: baseUrl.default("https://air-quality-api.open-meteo.com"),
  /** The US National Weather Service's API (official warnings for US places): `/alerts/active?point=` is appended. */
  NWS_ALERTS_URL: baseUrl.default("https://api.weather.gov"),
  /** MeteoAlarm's feeds (official warnings for its European members): `/feeds/meteoalarm-legacy-atom-<country>` is appended. */
  METEOALARM_URL: baseUrl.default("https://feeds.meteoalarm.org"),
  /** The SMTP server mail goes through (password resets, email changes, email briefings). Unset: no mail; what needs it says so. */
  SMTP_URL: smtpUrl.optional(),
  /** Who mail comes from; required with SMTP_URL. */
  MAIL_FROM: mailFrom.optional(),
  /** The address people reach the app at, for the links in mail (default: http://HOST:PORT). */
  PUBLIC_URL: httpUrl("expected the app's public http(s) address, such as https://weather.example.com")
    .transform((value) => value.replace(/\/+$/, ""))
    .optional(),
  /** A hosted GraphQL API to use instead of the embedded one (its full endpoint URL). */
  GRAPHQL_URL: httpUrl("expected the http(s) URL of a GraphQL endpoint, such as https://api.example.com/graphql").optional(),
  /** PostHog project key (public). Unset: analytics is off and no request leaves the browser. */
  POSTHOG_KEY: z.string().trim().min(1).optional(),
  /** PostHog ingestion host. */
  POSTHOG_HOST: baseUrl.default("https://eu.i.posthog.com"),
  /** Contact sent to push services with every push (VAPID "subject"). */
  VAPID_SUBJECT: z
    .string()
    .trim()
    .regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, "expected mailto:you@example.com or an https:// URL")
    .default("mailto:admin@weatherbot.example"),
  /** Lets push endpoints be on loopback (plain HTTP allowed there): for tests' fake push services, never in real use. */
  PUSH_ALLOW_LOOPBACK: flag.default(false),
  /** The least severe log line written (JSON lines on stdout). */
  LOG_LEVEL: z.enum(LOG_LEVELS, { message: `expected one of ${LOG_LEVELS.map((level) => `"${level}"`).join(", ")}` }).default("info"),
  /** Client addresses /metrics answers without a token (the address TRUST_PROXY gives, as for every route). */
  METRICS_ALLOW: metricsAllow.default(["loopback"]),
  /** A bearer token that opens /metrics from anywhere. */
  METRICS_TOKEN: z.string().trim().min(16, "expected at least 16 characters (for example: openssl rand -hex 32)").optional(),
  /** Requests (pages, their data, GraphQL operations) per client address and minute, over all instances; 0: no limit. */
  REQUEST_LIMIT: requestCount.default(1200),
  /** Mutations per client address and minute, over all instances; 0: no limit. */
  MUTATION_LIMIT: requestCount.default(120),
  /** How many shards the bot's users are cut into: at most that many instances share its ticks. The same on every instance. */
  ENGINE_SHARDS: wholeNumber(1, 4096).default(16),
  /** The bot reads the watched forecasts again spread over each 15 minutes, not all as they expire together. */
  ENGINE_REFRESH_SPREAD: flag.default(true),
  /** Messages older than this many days are removed from the inbox. */
  MESSAGE_RETENTION_DAYS: wholeNumber(1, 36500).default(90),
  /** Turns on the /__test/* routes the end-to-end suite uses to inject failures. */
  TEST_HOOKS: flag.default(false),
  /** The scrypt cost of new password hashes: OWASP's, or "test" (far cheaper) for a test run's server only. */
  PASSWORD_HASH_COST: z.enum(["owasp", "test"], { message: 'expected "owasp" or "test"' }).default("owasp"),
});

const envSchema = envFields.superRefine((env, ctx) => {
  if (env.SMTP_URL && !env.MAIL_FROM) {
    ctx.addIssue({ code: "custom", path: ["MAIL_FROM"], message: "required with SMTP_URL: the address mail comes from" });
  }
  if (env.PASSWORD_HASH_COST === "test" && env.NODE_ENV !== "test" && !env.TEST_HOOKS) {
    ctx.addIssue({
      code: "custom",
      path: ["PASSWORD_HASH_COST"],
      message: '"test" weakens every password stored: only a test run may use it (NODE_ENV=test or TEST_HOOKS=1)',
    });
  }
});

export type ServerEnv = z.output<typeof envSchema>;

/** Where people reach the app (PUBLIC_URL), for absolute links that leave it (mail); otherwise where it listens. */
export function publicUrl(env: Pick<ServerEnv, "PUBLIC_URL" | "HOST" | "PORT">): string {
  if (env.PUBLIC_URL) return env.PUBLIC_URL;
  const host = ["0.0.0.0", "::", ""].includes(env.HOST) ? "localhost" : env.HOST.includes(":") ? `[${env.HOST}]` : env.HOST;
  return `http://${host}:${env.PORT}`;
}

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    this.name = "EnvError";
  }
}

/** Parses the given environment (default: process.env); throws EnvError listing every bad variable. */
export function parseEnv(source: Record<string, string | undefined> = process.env): ServerEnv {
  // An empty variable means "not set", as in most shells' `VAR= command`.
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ""));
  const result = envSchema.safeParse(present);
  if (result.success) return result.data;
  throw new EnvError(
    result.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? "environment");
      const value = present[name];
      // SMTP_URL carries the server's password.
      const secret = name === "SESSION_SECRET" || name === "METRICS_TOKEN" || name === "SMTP_URL";
      const shown = value === undefined ? "" : ` (got ${JSON.stringify(secret ? "[hidden]" : value)})`;
      return `${name}: ${issue.message}${shown}`;
    }),
  );
}

let cached: ServerEnv | undefined;

/** The validated environment of this process, parsed on first use. */
export function serverEnv(): ServerEnv {
  cached ??= parseEnv();
  return cached;
}
