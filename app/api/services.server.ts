import path from "node:path";
import type { ApiConfig } from "./api-config.server";
import { createHashSlots } from "./auth/hash-slots.server";
import { createLastSeen } from "./auth/last-seen.server";
import { createLoginGuard } from "./auth/login-guard.server";
import { createRateLimits } from "./auth/rate-limit.server";
import { createSessionEnds } from "./auth/session-ends.server";
import { createSessionLookup } from "./auth/sessions.server";
import { createAlertService } from "./bot/alerts.server";
import { createBriefingService } from "./bot/briefings.server";
import { createInbox, type Inbox } from "./bot/inbox.server";
import { createPushBatch, type PushBatch } from "./bot/push-batch.server";
import { createPushService, loadVapidKeys, type PushService } from "./bot/push.server";
import { createWarningAlertService } from "./bot/warning-alerts.server";
import type { ApiServices } from "./context.server";
import type { ChangeTracker } from "./db/change-tracker.server";
import { databaseTarget, openDatabase, type DatabaseDialect, type Db } from "./db/database.server";
import { createOutageLog } from "./db/outage-log.server";
import { createMailService } from "./mail/mail-service.server";
import { noMetrics, type ApiMetrics } from "./metrics.server";
import { createRequestLimits, NO_REQUEST_LIMITS, type RequestLimits } from "./request-limits.server";
import { createPlaceLists } from "./schema/places.server";
import { createOfficialWarnings } from "./warnings/official-warnings.server";
import { createAirQualityService } from "./weather/air-quality-service.server";
import { createForecastService } from "./weather/forecast-service.server";
import { createOpenMeteoClient } from "./weather/open-meteo.server";
import { createRecentLocations } from "./weather/recent-locations.server";
import { createUserCaches } from "./user-caches.server";

/** The API's database and what lives as long as the API on it. */
export type OpenedServices = {
  services: ApiServices;
  changes: ChangeTracker;
  dialect: DatabaseDialect;
  /** The general limits per client address (the HTTP and WebSocket servers count requests here). */
  requestLimits: RequestLimits;
  /** Settles once every push delivery under way has. */
  deliveriesSettled: () => Promise<unknown>;
};

/** Opens the database and builds the services every request and the bot engine share. */
export async function openServices(config: ApiConfig): Promise<OpenedServices> {
  const now = config.now ?? (() => new Date());
  const metrics = config.metrics ?? noMetrics;
  const { db, changes, dialect } = await openDatabase(databaseTarget(path.resolve(config.dataDir), config.databaseUrl), {
    onStatement: config.onStatement,
    poolSize: config.databasePoolSize,
  });
  const weather = weatherServices(config, db, changes, now, metrics);
  // Its follower only hands new rows to subscribers, which no cached answer depends on.
  const inbox = createInbox(db, now, { followDb: changes.reads.exempt(db) });
  const vapid = loadVapidKeys(path.resolve(config.dataDir));
  const pushSubject = config.pushSubject ?? "mailto:admin@weatherbot.example";
  const warnings = createOfficialWarnings({
    env: { NWS_ALERTS_URL: config.nwsAlertsUrl, METEOALARM_URL: config.meteoAlarmUrl, VAPID_SUBJECT: pushSubject },
    // A test's clock, when it has one, also ages the answers cached per area.
    now: config.now,
  });
  const push = createPushService({
    db,
    now,
    vapid,
    subject: pushSubject,
    endpointPolicy: { allowLoopback: config.pushAllowLoopback ?? false },
    metrics,
  });
  const pushBatch = deliverPublished(inbox, push, metrics);
  const rateLimits = createRateLimits(db, { dialect, now: () => now().getTime() });
  const placeLists = createPlaceLists(changes, db);
  const sessionLookup = createSessionLookup(db, changes, now);
  const userCaches = createUserCaches();
  userCaches.add(sessionLookup);
  userCaches.add(push);
  userCaches.add({
    users: () => [...placeLists.entries()].map(([userId]) => userId),
    forgetUser: (userId) => placeLists.forget((key) => key === userId),
  });
  // Requests are counted on the wall clock, whatever `now` the tests give the bot; no cached answer reads the counts.
  const requestLimits = createRequestLimits(config.requestLimits ?? NO_REQUEST_LIMITS, { db: changes.reads.exempt(db) });
  const mail = createMailService(config.mail, db, dialect);
  const services: ApiServices = {
    db,
    now,
    ...weather,
    placeLists,
    recentLocations: createRecentLocations(db, now),
    inbox,
    briefings: createBriefingService({ db, inbox, forecasts: weather.forecasts, now, mail }),
    alerts: createAlertService({
      db,
      inbox,
      forecasts: weather.forecasts,
      airQuality: weather.airQuality,
      now,
      refreshSpread: config.engine?.refreshSpread ?? false,
    }),
    warnings,
    warningAlerts: createWarningAlertService({ db, inbox, warnings, now, refreshSpread: config.engine?.refreshSpread ?? false }),
    push,
    pushBatch,
    vapidPublicKey: vapid.publicKey,
    loginGuard: createLoginGuard(rateLimits),
    hashSlots: createHashSlots(),
    passwordHashCost: config.passwordHashCost ?? "owasp",
    sessionEnds: createSessionEnds(now),
    sessionLookup,
    // No cached answer depends on what it writes, and it must not keep the answers of the requests it notes from being cached.
    lastSeen: createLastSeen(changes.reads.exempt(db), now),
    userCaches,
    rateLimits,
    metrics,
    mail,
  };
  return { services, changes, dialect, requestLimits, deliveriesSettled: pushBatch.settled };
}

/** Open-Meteo, and the forecast and air-quality services that cache its answers. */
function weatherServices(config: ApiConfig, db: Db, changes: ChangeTracker, now: () => Date, metrics: ApiMetrics) {
  const openMeteo = createOpenMeteoClient({
    forecastUrl: config.openMeteoForecastUrl,
    geocodingUrl: config.openMeteoGeocodingUrl,
    airQualityUrl: config.openMeteoAirQualityUrl,
    metrics,
  });
  // The forecast store's values say themselves how long they hold (a resolver passes that on
  // with validUntil), so no cached answer depends on the table behind it.
  const forecasts = createForecastService({ client: openMeteo, db: changes.reads.exempt(db), now, metrics });
  const airQuality = createAirQualityService({ client: openMeteo, db: changes.reads.exempt(db), now, metrics });
  return { openMeteo, forecasts, airQuality };
}

/**
 * Pushes every message the inbox publishes to the user's devices (and counts it), a tick's together (push-batch).
 * Its `settled` sends what waits and settles once the deliveries under way have: those still going when the API
 * closes are waited for, as the database outlives them.
 */
function deliverPublished(inbox: Inbox, push: PushService, metrics: ApiMetrics): PushBatch {
  const deliveryLog = createOutageLog("[push]", "delivery failed");
  const batch = createPushBatch((rows) => push.deliverTogether(rows).then(deliveryLog.succeeded, deliveryLog.failed));
  inbox.onPublish((row) => {
    metrics.messageWritten(row.kind);
    batch.add(row);
  });
  return batch;
}
