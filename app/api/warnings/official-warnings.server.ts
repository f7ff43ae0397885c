import { createHash } from "node:crypto";
import { apiLog, type ApiLogger } from "../log.server";
import { createAreaCache } from "./area-cache.server";
import { matchAreas } from "./area-match.server";
import { createChainMemory, currentMessages, type ChainedMessage } from "./cap-chain.server";
import { coverageOf } from "./coverage.server";
import { asFeedError } from "./feed-error.server";
import { chooseByLanguage } from "./language-choice.server";
import { createMeteoAlarmClient } from "./meteoalarm-client.server";
import { METEOALARM_FEEDS } from "./meteoalarm-countries.server";
import { isExpired, toOfficialWarning } from "./normalise.server";
import { createNwsClient } from "./nws-client.server";
import {
  METEOALARM_CREDIT,
  NWS_CREDIT,
  type Coverage,
  type OfficialWarning,
  type WarningPlace,
  type WarningServiceId,
  type WarningsOutcome,
} from "./official-warning.server";
import { createWarningsOutageLog } from "./outage-log.server";

export type * from "./official-warning.server";

export type OfficialWarningsOptions = {
  /** NWS_ALERTS_URL and METEOALARM_URL; VAPID_SUBJECT is the contact in the User-Agent the NWS asks for. */
  env: { NWS_ALERTS_URL: string; METEOALARM_URL: string; VAPID_SUBJECT: string };
  log?: ApiLogger;
  fetch?: typeof fetch;
  now?: () => Date;
  /** How long an area's answer is shared before the service is asked again (5 minutes). */
  refreshMs?: number;
  /** After a failure, how long before the service is asked again (1 minute). */
  failureRetryMs?: number;
  /** How old the last good answer may be and still be served while a service fails (30 minutes). */
  maxStaleMs?: number;
  /** One request's time, headers and body (10 s). */
  timeoutMs?: number;
  /** Tries after a refused connection, 429 or 5xx, the first included (2). */
  attempts?: number;
  retryDelayMs?: number;
  /** Size caps: an NWS answer (4 MiB), a MeteoAlarm feed (16 MiB), one CAP document (1 MiB). */
  maxNwsBytes?: number;
  maxFeedBytes?: number;
  maxDocumentBytes?: number;
  /** CAP documents read for one country's feed (300), and at once (4). */
  maxDocuments?: number;
  documentConcurrency?: number;
  /** Areas cached in memory per service (NWS grid points, countries). */
  maxAreas?: number;
};

/** An area's answer as the engine watches it (areaState). */
export type AreaState = { hash: string; fetchedAt: Date | null; stale: boolean; changesAt: Date | null };

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

type Snapshot = { current: ChainedMessage[]; incomplete: string[] };

const SEVERITY_RANK = { Extreme: 4, Severe: 3, Moderate: 2, Minor: 1, Unknown: 0 } as const;

/**
 * Official warnings for places: the US National Weather Service's active alerts for US places
 * and MeteoAlarm's CAP feeds for its European members, fetched per area (an NWS grid point, a
 * MeteoAlarm country) at most every few minutes and shared by everyone there. Nothing here
 * throws at its caller: a failing service is an "unavailable" outcome (or its last answer,
 * stale), logged once per outage. Decision 022.
 *
 *     const warnings = createOfficialWarnings({ env: serverEnv() });
 *     warnings.coverage(place);                  // which service, or not covered
 *     await warnings.warningsFor(place, "de-DE"); // { status: "ok", warnings, … } | not-covered | unavailable
 */
export function createOfficialWarnings(options: OfficialWarningsOptions) {
  const log = options.log ?? apiLog;
  const now = options.now ?? (() => new Date());
  const refreshMs = options.refreshMs ?? 5 * 60_000;
  const contact = options.env.VAPID_SUBJECT.replace(/^mailto:/, "");
  const http = {
    fetch: options.fetch ?? fetch,
    timeoutMs: options.timeoutMs ?? 10_000,
    attempts: options.attempts ?? 2,
    retryDelayMs: options.retryDelayMs ?? 500,
    // The NWS asks every client to name itself and a contact (https://www.weather.gov/documentation/services-web-api).
    userAgent: `(weatherbot, ${contact})`,
  };
  const nws = createNwsClient({ ...http, baseUrl: options.env.NWS_ALERTS_URL, maxBytes: options.maxNwsBytes ?? 4 * 1024 * 1024 });
  const meteoAlarm = createMeteoAlarmClient({
    ...http,
    baseUrl: options.env.METEOALARM_URL,
    maxFeedBytes: options.maxFeedBytes ?? 16 * 1024 * 1024,
    maxDocumentBytes: options.maxDocumentBytes ?? 1024 * 1024,
    maxDocuments: options.maxDocuments ?? 300,
    concurrency: options.documentConcurrency ?? 4,
  });
  const chains = { nws: createChainMemory(), meteoalarm: createChainMemory() };
  const outages = { nws: createWarningsOutageLog(log, NWS_CREDIT), meteoalarm: createWarningsOutageLog(log, METEOALARM_CREDIT) };

  function areaCache(serviceId: WarningServiceId, load: (area: string) => Promise<Snapshot>) {
    return createAreaCache<Snapshot>({
      load,
      ttlMs: refreshMs,
      failureTtlMs: options.failureRetryMs ?? 60_000,
      maxStaleMs: options.maxStaleMs ?? 30 * 60_000,
      max: options.maxAreas ?? 10_000,
      now: options.now,
      onSuccess: (key) => outages[serviceId].succeeded(key),
      onFailure: (key, error) => outages[serviceId].failed(key, error),
    });
  }

  const areas = {
    nws: areaCache("nws", async (key) => {
      const { messages } = await nws.activeAt(key.slice("nws:".length));
      return { current: currentMessages(messages, chains.nws), incomplete: [] };
    }),
    meteoalarm: areaCache("meteoalarm", async (key) => {
      const { messages, incomplete } = await meteoAlarm.country(METEOALARM_FEEDS[key.slice("meteoalarm:".length)]!);
      return { current: currentMessages(messages, chains.meteoalarm), incomplete };
    }),
  };

  /** The snapshot's warnings that concern the place, in the reader's language, unexpired, most severe first. */
  function warningsOf(serviceId: WarningServiceId, snapshot: Snapshot, place: WarningPlace, language: string): OfficialWarning[] {
    const at = now();
    const warnings: OfficialWarning[] = [];
    for (const { root, message } of snapshot.current) {
      const info = chooseByLanguage(message.infos, language);
      if (!info || isExpired(info, at)) continue;
      if (serviceId === "nws") {
        // The NWS matched the point itself.
        const area = info.areas.map((each) => each.areaDesc).join("; ");
        warnings.push(toOfficialWarning({ serviceId, service: NWS_CREDIT, root, message, info, match: "point", area }));
        continue;
      }
      const matched = matchAreas(info.areas.length > 0 ? info.areas : message.infos.flatMap((block) => block.areas), place);
      if (!matched) continue;
      const issuer = info.senderName ?? message.infos.find((block) => block.senderName)?.senderName;
      const service = issuer ? `${METEOALARM_CREDIT} / ${issuer}` : METEOALARM_CREDIT;
      warnings.push(toOfficialWarning({ serviceId, service, root, message, info, match: matched.match, area: matched.areas.join("; ") }));
    }
    return warnings.sort(
      (a, b) =>
        SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || (a.onset ?? "").localeCompare(b.onset ?? "") || a.id.localeCompare(b.id),
    );
  }

  /**
   * What an area's answer is now, as a hash (every warning message of it, which of their blocks have expired, and
   * whether the answer is stale, incomplete or missing), when it was fetched, and the next instant it changes by
   * itself (a block expiring). The engine reads it again when due and looks at the area's places only when it changed.
   */
  async function areaState(areaKey: string): Promise<AreaState> {
    const serviceId = areaKey.slice(0, areaKey.indexOf(":")) as WarningServiceId;
    const result = await areas[serviceId].get(areaKey);
    if (!result.ok)
      return { hash: sha1(JSON.stringify(["unavailable", result.error.reason])), fetchedAt: null, stale: true, changesAt: null };
    const at = now().getTime();
    let changesAt: number | null = null;
    const messages = result.value.current.map(({ root, message }) => [
      root,
      message.identifier,
      message.infos.map((info) => {
        const expires = info.expires === null ? Number.NaN : Date.parse(info.expires);
        if (expires >= at && (changesAt === null || expires < changesAt)) changesAt = expires;
        return isExpired(info, new Date(at));
      }),
    ]);
    const hash = sha1(JSON.stringify([result.stale, result.value.incomplete, messages]));
    return { hash, fetchedAt: result.fetchedAt, stale: result.stale, changesAt: changesAt === null ? null : new Date(changesAt + 1) };
  }

  return {
    areaState,

    /** How soon a service that failed is asked again. */
    failureRetryMs: options.failureRetryMs ?? 60_000,

    /** How long an area's answer is shared before the service is asked again: what is cached of it must not outlive it. */
    refreshMs,

    /** Whether a service issues official warnings for the place (the card says so plainly when none does). */
    coverage(place: WarningPlace): Coverage {
      return coverageOf(place);
    },

    /**
     * The official warnings in force for the place, texts in `language` (a BCP 47 tag) where the service wrote it;
     * `notBefore`: from an answer fetched then or later (the engine's, decision 026).
     */
    async warningsFor(place: WarningPlace, language: string, notBefore?: Date): Promise<WarningsOutcome> {
      const coverage = coverageOf(place);
      if (!coverage.covered) return { status: "not-covered", reason: coverage.reason };
      const { serviceId, areaKey } = coverage;
      try {
        const result = await areas[serviceId].get(areaKey, notBefore);
        if (!result.ok) return { status: "unavailable", serviceId, reason: result.error.reason, message: result.error.message };
        return {
          status: "ok",
          serviceId,
          warnings: warningsOf(serviceId, result.value, place, language),
          fetchedAt: result.fetchedAt,
          stale: result.stale,
          incomplete: result.value.incomplete,
        };
      } catch (error) {
        // A fault of this layer's own: an error in the log, never an exception in the engine.
        const failure = asFeedError(error);
        log.error({ err: error, area: areaKey }, "[warnings] could not answer for a place:");
        return { status: "unavailable", serviceId, reason: "internal", message: failure.message };
      }
    },
  };
}

export type OfficialWarnings = ReturnType<typeof createOfficialWarnings>;
