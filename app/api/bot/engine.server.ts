import { createOutageLog } from "../db/outage-log.server";
import { apiLog } from "../log.server";
import { noMetrics, type ApiMetrics } from "../metrics.server";
import type { AlertService } from "./alerts.server";
import type { BriefingService } from "./briefings.server";
import type { ShardLeases } from "./engine-shards.server";
import type { MessageRetention } from "./message-retention.server";
import type { PushBatch } from "./push-batch.server";
import type { PushService } from "./push.server";
import { ENGINE_SHARDS, scopeOf } from "./shard-ranges";
import type { WarningAlertService } from "./warning-alerts.server";

export type EnginePassResult = { shards: number[]; briefings: number; alerts: number; warnings: number; digests: number };

/**
 * One engine pass of a tick, shared with every other instance on the database (decision 010):
 * claim this instance's share of the shards, run due briefings, alert rules, official warnings and digests for
 * their users, mark them done, and claim again until no shard is left for the tick (those
 * nobody took, and those a dead instance held). Alone, an instance claims every shard at once
 * and does everything in one go, as a single process always did.
 */
export function createEngine({
  briefings,
  alerts,
  warningAlerts,
  push,
  pushBatch,
  leases,
  leaseMs,
  shardCount = ENGINE_SHARDS,
  retention,
  metrics = noMetrics,
}: {
  briefings: BriefingService;
  alerts: AlertService;
  warningAlerts: WarningAlertService;
  push: PushService;
  /** What the pass publishes goes to push as one tick's (at most one notification per user, urgent ones apart). */
  pushBatch?: Pick<PushBatch, "hold">;
  leases: ShardLeases;
  leaseMs: number;
  /** How many shards the users are cut into (the ENGINE_SHARDS setting): the same on every instance of a database. */
  shardCount?: number;
  /** Removes old messages after each pass, in the background: the tick does not wait for it. */
  retention?: Pick<MessageRetention, "start">;
  metrics?: ApiMetrics;
}) {
  const renewalLog = createOutageLog("[bot]", "lease renewal failed");
  const retentionLog = createOutageLog("[bot]", "removing old messages failed");
  let sweeping: Promise<unknown> = Promise.resolve();
  /** Keeps the lease on `shards` while `work` runs (a big tick on a loaded machine may outlast one lease). */
  async function holding<T>(tick: number, shards: number[], work: () => Promise<T>): Promise<T> {
    let renewing: Promise<unknown> = Promise.resolve();
    const timer = setInterval(() => {
      renewing = renewing.then(() => leases.renew(tick, shards)).then(renewalLog.succeeded, renewalLog.failed);
    }, leaseMs / 3);
    timer.unref();
    try {
      return await work();
    } finally {
      clearInterval(timer);
      await renewing;
    }
  }

  /** Claims shards of `tick` until none is left for it, and does their work. */
  async function passShards(tick: number, onClaim?: (shards: number[]) => void): Promise<EnginePassResult> {
    const result: EnginePassResult = { shards: [], briefings: 0, alerts: 0, warnings: 0, digests: 0 };
    const share = await leases.register(shardCount);
    for (;;) {
      const shards = await leases.claim(tick, share);
      if (shards.length === 0) return result;
      onClaim?.(shards);
      const scope = scopeOf(shards, shardCount);
      try {
        await holding(tick, shards, async () => {
          result.briefings += (await briefings.runDue(scope)).sent;
          const checked = await alerts.evaluateAll(scope);
          result.alerts += checked.alerts + checked.allClears;
          result.warnings += (await warningAlerts.runAll(scope)).messages;
          result.digests += await push.sendDigests(scope);
        });
      } catch (error) {
        await leases.release(tick, shards).catch(() => {});
        throw error;
      }
      await leases.finish(tick, shards);
      result.shards.push(...shards);
    }
  }

  return {
    /** Resolves once the removal of old messages started by a pass is over (closing waits for it). */
    settled: () => sweeping,

    /** Notes this instance as running (a pass does it too); returns its share of a tick. */
    register: () => leases.register(shardCount),

    /**
     * The pass of `tick` (ticks are numbered by the scheduler from the wall clock), timed for
     * /metrics and logged. `onClaim` hears each claim (tests).
     */
    async pass(tick: number, { onClaim }: { onClaim?: (shards: number[]) => void } = {}): Promise<EnginePassResult> {
      const started = performance.now();
      const release = pushBatch?.hold();
      try {
        const result = await passShards(tick, onClaim);
        if (retention) sweeping = retention.start().then(retentionLog.succeeded, retentionLog.failed);
        const ms = performance.now() - started;
        metrics.engineTick(ms / 1000, "ok");
        // A tick that wrote nothing is routine: seen only at debug level.
        const wrote = result.briefings + result.alerts + result.warnings + result.digests > 0;
        apiLog[wrote ? "info" : "debug"]({ tick, ...result, ms: Math.round(ms) }, "[bot] engine tick");
        return result;
      } catch (error) {
        metrics.engineTick((performance.now() - started) / 1000, "error");
        throw error;
      } finally {
        release?.();
      }
    },
  };
}

export type Engine = ReturnType<typeof createEngine>;
