import { randomUUID } from "node:crypto";
import type { ApiConfig } from "./api-config.server";
import { MAX_ANSWER_CHARS } from "./answer-size.server";
import { followSessionEnds } from "./auth/session-follower.server";
import { createEngine } from "./bot/engine.server";
import { createShardLeases } from "./bot/engine-shards.server";
import { startScheduler } from "./bot/scheduler.server";
import type { ApiServices } from "./context.server";
import type { DatabaseDialect } from "./db/database.server";
import { createDatabaseProbe } from "./db/health.server";
import { setApiLogger } from "./log.server";
import { createOutageAnswer } from "./outage-answer.server";
import { createContextFiller } from "./request-context.server";
import { openServices } from "./services.server";
import { followDeletedAccounts } from "./user-caches.server";
import { createApiYoga } from "./yoga.server";
import { createMessageRetention } from "./bot/message-retention.server";

/**
 * The embedded reference API: one entry for the server (app/server/app.server.ts). Everything
 * under app/api is server-only; the app reaches it only over GraphQL at /graphql.
 */

export type { ApiConfig };

/** The largest request the API reads, over HTTP or as one WebSocket message (its biggest operation is a few KB). */
export const MAX_REQUEST_BYTES = 1_000_000;

export async function createApi(config: ApiConfig) {
  if (config.logger) setApiLogger(config.logger);
  const maxAnswerChars = config.maxAnswerChars ?? MAX_ANSWER_CHARS;
  const { services, changes, dialect, requestLimits, deliveriesSettled } = await openServices(config);
  const { db, inbox, rateLimits, forecasts, airQuality } = services;
  const unavailable = createOutageAnswer();
  const yoga = createApiYoga({
    production: config.production,
    schemaExtensions: config.schemaExtensions,
    unavailable,
    fillContext: createContextFiller(services, changes, unavailable),
    metrics: services.metrics,
    changes,
    requestLimits,
    maxAnswerChars,
    userCaches: services.userCaches,
  });
  const { engine, scheduler } = startEngine(config, services, dialect);
  const stopFollowing = inbox.follow();
  // It only ends listeners: no cached answer depends on what it reads.
  const stopFollowingSessions = followSessionEnds(changes.reads.exempt(db), services.sessionEnds);
  // It only drops cached data: no cached answer depends on what it reads.
  const stopFollowingDeletions = followDeletedAccounts(changes.reads.exempt(db), changes, services.userCaches);

  return {
    yoga,
    services,
    /** The bot engine's pass, shared with the other instances on the database (the scheduler runs it). */
    engine,
    maxAnswerChars,
    /** Shutting down: no engine tick starts any more; the one under way goes on, and `close` waits for it. */
    stopScheduling() {
      void scheduler?.stop();
    },
    /** The general limits per client address, shared with the other instances: the HTTP and WebSocket servers count requests here. */
    requestLimits,
    /** Whether the database answers a `select 1` right now (for /healthz). */
    databaseHealth: createDatabaseProbe(changes.reads.exempt(db), dialect),
    async close() {
      await stopFollowing();
      await stopFollowingSessions();
      await stopFollowingDeletions();
      await scheduler?.stop();
      await engine.settled();
      await deliveriesSettled();
      await services.mail.stop();
      await rateLimits.settled();
      await services.lastSeen.settled();
      await requestLimits.close();
      await forecasts.flushStores();
      await airQuality.flushStores();
      await db.destroy();
    },
  };
}

export type Api = Awaited<ReturnType<typeof createApi>>;

/**
 * The bot engine on the shard leases it shares with the other instances, and its scheduler unless the caller drives it.
 * The engine's tick (default 30 s); its lease, two thirds of a tick: shorter, so a dead instance's shards are free by the next tick.
 */
function startEngine(config: ApiConfig, services: ApiServices, dialect: DatabaseDialect) {
  const intervalMs = config.engine?.intervalMs ?? 30_000;
  const leaseMs = config.engine?.leaseMs ?? Math.floor((intervalMs * 2) / 3);
  const leases = createShardLeases({
    db: services.db,
    dialect,
    instanceId: config.engine?.instanceId ?? randomUUID(),
    leaseMs,
    aliveMs: 2 * intervalMs,
  });
  const retention = createMessageRetention({ db: services.db, now: services.now, days: config.engine?.messageRetentionDays });
  const engine = createEngine({ ...services, leases, leaseMs, shardCount: config.engine?.shards, retention });
  const scheduler = config.scheduler === false ? null : startScheduler(engine, intervalMs);
  return { engine, scheduler };
}
