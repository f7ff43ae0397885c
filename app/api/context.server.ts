import type { HashSlots } from "./auth/hash-slots.server";
import type { PasswordHashCost } from "./auth/password.server";
import type { LoginGuard } from "./auth/login-guard.server";
import type { LastSeen } from "./auth/last-seen.server";
import type { SessionEnds } from "./auth/session-ends.server";
import type { SessionLookup } from "./auth/sessions.server";
import type { RateLimits, WindowRule } from "./auth/rate-limit.server";
import type { AlertService } from "./bot/alerts.server";
import type { BriefingService } from "./bot/briefings.server";
import type { Inbox } from "./bot/inbox.server";
import type { PushBatch } from "./bot/push-batch.server";
import type { PushService } from "./bot/push.server";
import type { WarningAlertService } from "./bot/warning-alerts.server";
import type { Db } from "./db/database.server";
import type { ReadCache } from "./db/read-cache.server";
import { apiError, unauthenticated } from "./errors.server";
import type { Loaders } from "./loaders.server";
import type { MailService } from "./mail/mail-service.server";
import type { ApiMetrics } from "./metrics.server";
import type { RequestReads, ResultHints } from "./result-cache.server";
import type { PlaceTable } from "./db/tables";
import type { UserMapper } from "./schema/mappers";
import type { UserCaches } from "./user-caches.server";
import type { OfficialWarnings } from "./warnings/official-warnings.server";
import type { AirQualityService } from "./weather/air-quality-service.server";
import type { ForecastService } from "./weather/forecast-service.server";
import type { OpenMeteoClient } from "./weather/open-meteo.server";
import type { RecentLocations } from "./weather/recent-locations.server";

/** What lives as long as the API: shared by every request. */
export type ApiServices = {
  /**
   * The shared database. Requests do not see it: their context's `db` is their own,
   * logging what they read (see RequestReads).
   */
  db: Db;
  now: () => Date;
  openMeteo: OpenMeteoClient;
  forecasts: ForecastService;
  airQuality: AirQualityService;
  /** Each user's places in order, by user id (see createPlaceLists). */
  placeLists: ReadCache<string, readonly PlaceTable[]>;
  /** Place search results handed out, for addPlace(locationId). */
  recentLocations: RecentLocations;
  loginGuard: LoginGuard;
  /** Password hashing that may run at once (see createHashSlots). */
  hashSlots: HashSlots;
  /** The scrypt cost of new password hashes: OWASP's, or a test run's (PASSWORD_HASH_COST). */
  passwordHashCost: PasswordHashCost;
  /** Tells a session's subscriptions and sockets that it has ended. */
  sessionEnds: SessionEnds;
  /** The session a token names, cached (every request asks). */
  sessionLookup: SessionLookup;
  /** Notes when each session was last used (the sessions list shows it). */
  lastSeen: LastSeen;
  /** Every cache in this process that holds users' data: a deleted account's is dropped from all of them. */
  userCaches: UserCaches;
  /** Sliding-window limits counted in the database (log-ins, signed-out lookups). */
  rateLimits: RateLimits;
  inbox: Inbox;
  briefings: BriefingService;
  alerts: AlertService;
  /** The national weather services' official warnings for places, fetched per area and shared (decision 022). */
  warnings: OfficialWarnings;
  /** Official warnings told as WARNING messages in each engine pass (decision 023). */
  warningAlerts: WarningAlertService;
  push: PushService;
  /** Published messages on their way to push, a tick's together (the engine holds it over a pass). */
  pushBatch: PushBatch;
  vapidPublicKey: string;
  /** What the API counts for /metrics (nothing unless the server gives it a registry). */
  metrics: ApiMetrics;
  /** Mail: the outbox and this instance's sender on it (not available without SMTP_URL). */
  mail: MailService;
};

/** One request's view: the services plus who is asking. */
export type ApiContext = ApiServices & {
  /** The database as this request sees it: every query run on it is logged in `reads`. */
  db: Db;
  /** What this request has read (a cached answer depends on it); read caches asked on its behalf are given it. */
  reads: RequestReads;
  session: { id: string; userId: string; expiresAt: string; user: UserMapper } | null;
  clientIp: string;
  /** The User-Agent the request came with (a session opened by it is named by it in the sessions list). */
  userAgent: string | null;
  /** The request's id, as its log lines carry it (the page's or /graphql's X-Request-Id, or a fresh one). */
  requestId: string;
  /** What this request's answer depends on, as its resolvers declare it (see useResultCache). */
  resultHints: ResultHints;
  /** This request's batched reads of per-item relations (see Loaders); never shared with another request. */
  loaders: Loaders;
};

/** Requests per address for signed-out weather and place lookups (each spends the provider's quota). */
export const ANONYMOUS_LOOKUPS: WindowRule = { name: "lookup", limit: 60, windowMs: 60_000 };

/**
 * Signed-out callers may look up weather and places only so often per address; signed-in
 * users are accountable and not limited here.
 */
export async function limitAnonymousLookup(context: ApiContext): Promise<void> {
  if (context.session) return;
  const taken = await context.rateLimits.take([{ rule: ANONYMOUS_LOOKUPS, key: context.clientIp }]);
  if ("waitMs" in taken) {
    const retryAfterSeconds = Math.ceil(taken.waitMs / 1000);
    throw apiError("RATE_LIMITED", `Too many lookups; try again in ${retryAfterSeconds} seconds, or log in`, { retryAfterSeconds });
  }
}

/** The signed-in user's id, or an UNAUTHENTICATED error. */
export function requireUserId(context: ApiContext): string {
  return requireSession(context).userId;
}

/** The signed-in session (with its user's account), or an UNAUTHENTICATED error. */
export function requireSession(context: ApiContext): NonNullable<ApiContext["session"]> {
  if (!context.session) throw unauthenticated();
  return context.session;
}
