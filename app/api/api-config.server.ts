import type { PasswordHashCost } from "./auth/password.server";
import type { ApiLogger } from "./log.server";
import type { MailConfig } from "./mail/mail-service.server";
import type { ApiMetrics } from "./metrics.server";
import type { RequestLimitConfig } from "./request-limits.server";
import type { SchemaExtension } from "./schema/index.server";

/** What the server (or a test) tells the embedded API: where its data lives, the upstream services, its limits. */
export type ApiConfig = {
  production: boolean;
  dataDir: string;
  /** DATABASE_URL: `postgres://…` for PostgreSQL; unset or `sqlite:<path>` for SQLite. */
  databaseUrl?: string;
  /** DATABASE_POOL_SIZE: PostgreSQL connections kept at most (default 10). */
  databasePoolSize?: number;
  openMeteoForecastUrl: string;
  openMeteoGeocodingUrl: string;
  /** Open-Meteo's air-quality API base (OPEN_METEO_AIR_QUALITY_URL). */
  openMeteoAirQualityUrl: string;
  /**
   * The official-warning services' bases (NWS_ALERTS_URL, METEOALARM_URL). Required, like the forecast's: every caller
   * (the server from its environment, a test or bench from its fake) says where they are, so nothing reaches the real
   * services by default.
   */
  nwsAlertsUrl: string;
  meteoAlarmUrl: string;
  now?: () => Date;
  /** VAPID "subject": a mailto: or https: contact for push services. */
  pushSubject?: string;
  /** Lets push endpoints be on loopback (PUSH_ALLOW_LOOPBACK: the tests' push service); otherwise only public HTTPS hosts. */
  pushAllowLoopback?: boolean;
  /** The largest answer sent, in characters of JSON (default MAX_ANSWER_CHARS). */
  maxAnswerChars?: number;
  /** Run the bot's scheduler in this process (tests drive it by hand instead). */
  scheduler?: boolean;
  /**
   * The engine's tick (default 30 s), its lease on the shards it holds (default two thirds of a
   * tick: shorter, so a dead instance's shards are free by the next tick) and its name.
   */
  engine?: {
    intervalMs?: number;
    leaseMs?: number;
    instanceId?: string;
    /** How many shards the users are cut into (ENGINE_SHARDS; default 16): more instances than shards would idle. */
    shards?: number;
    /**
     * Whether the engine reads the watched forecasts again each in its own phase of the cache's cycle (ENGINE_REFRESH_SPREAD,
     * the server's default) rather than as each expires (the default here: what a pass sees then is as it always was).
     */
    refreshSpread?: boolean;
    /** Messages older than this many days are removed (MESSAGE_RETENTION_DAYS; default 90). */
    messageRetentionDays?: number;
  };
  /** Requests and mutations per client address and minute (REQUEST_LIMIT, MUTATION_LIMIT); default: no limit. */
  requestLimits?: RequestLimitConfig;
  /** Fields beside the API's own, for tests only (a resolver the API does not have). */
  schemaExtensions?: readonly SchemaExtension[];
  /** Hears every SQL statement before it runs (tests count a request's statements); nothing in production sets it. */
  onStatement?: (sql: string) => void;
  /** The scrypt cost of new password hashes (PASSWORD_HASH_COST): OWASP's unless a test run asks for its own. */
  passwordHashCost?: PasswordHashCost;
  /** Where the API's log lines go (the server's JSON logger); unset, the console. */
  logger?: ApiLogger;
  /** What the API counts for /metrics (the server's prom-client registry); unset, nothing. */
  metrics?: ApiMetrics;
  /** Mail over SMTP (SMTP_URL, MAIL_FROM): unset, no mail is sent and the features that need it are not offered. */
  mail?: MailConfig;
};
