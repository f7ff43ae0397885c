import { randomUUID } from "node:crypto";
import type { Transaction } from "kysely";
import type { Db } from "../db/database.server";
import type { BriefingTable, Database, MessageTable, SettingsTable } from "../db/tables";
import type { ForecastService } from "../weather/forecast-service.server";
import type { BriefingPeriod, Weekday } from "../../shared/schema-enums.generated";
import { briefingContent, periodWindow, placeFigures } from "./briefing-text.server";
import type { Inbox } from "./inbox.server";
import { wordFor } from "./message-words.server";
import { inScope, type UserScope } from "./shard-ranges";
import { nextOccurrence } from "./zoned-time";

/** A briefing more than this late (the server was down) is skipped, not sent stale. */
export const LATE_LIMIT_MS = 60 * 60_000;

export const parseDays = (days: string) => (days ? (days.split(",") as Weekday[]) : []);

/** When a briefing should next run, after `after`, in its owner's time zone. */
export function nextRunAt(briefing: Pick<BriefingTable, "time" | "days" | "enabled">, timeZone: string, after: Date): string | null {
  if (!briefing.enabled) return null;
  return nextOccurrence(after, briefing.time, parseDays(briefing.days), timeZone)?.toISOString() ?? null;
}

/**
 * Moves every briefing of a user to its next run in `timeZone`: briefings are set in wall-clock
 * time, so 07:00 after a move to Tokyo means 07:00 in Tokyo. Call it in the transaction that
 * changes the zone, so no pass sees the new zone with the old schedule.
 */
export async function rescheduleBriefings(trx: Transaction<Database>, userId: string, timeZone: string, now: Date): Promise<void> {
  const briefings = await trx.selectFrom("briefings").select(["id", "time", "days", "enabled"]).where("user_id", "=", userId).execute();
  for (const briefing of briefings) {
    await trx
      .updateTable("briefings")
      .set({ next_run_at: nextRunAt(briefing, timeZone, now) })
      .where("id", "=", briefing.id)
      .where("user_id", "=", userId)
      .execute();
  }
}

export function createBriefingService({
  db,
  inbox,
  forecasts,
  now,
}: {
  db: Db;
  inbox: Inbox;
  forecasts: ForecastService;
  now: () => Date;
}) {
  /** A briefing as of now: its figures per place, formatted for its owner (stored beside them). */
  async function compose(briefing: BriefingTable, settings: SettingsTable) {
    const places = await db
      .selectFrom("briefing_places")
      .innerJoin("places", "places.id", "briefing_places.place_id")
      .select(["places.id", "places.label", "places.latitude", "places.longitude", "places.time_zone"])
      .where("briefing_places.briefing_id", "=", briefing.id)
      .where("places.user_id", "=", briefing.user_id)
      .orderBy("briefing_places.position")
      .execute();
    const window = periodWindow(briefing.period as BriefingPeriod, now(), settings.time_zone);
    // Asked for together, the forecasts travel upstream in one request.
    const results = await Promise.allSettled(places.map((place) => forecasts.get(place)));
    const figures = places.map((place, index) => {
      const result = results[index]!;
      return placeFigures(place, result.status === "fulfilled" ? result.value.forecast : null, window);
    });
    const content = briefingContent(briefing.name, briefing.period as BriefingPeriod, figures);
    return { ...wordFor(content, settings), content, firstPlaceId: places[0]?.id ?? null };
  }

  /** The inbox message for a composed briefing. */
  function briefingMessage(briefing: BriefingTable, content: Awaited<ReturnType<typeof compose>>, dedupeKey: string) {
    return {
      userId: briefing.user_id,
      kind: "BRIEFING" as const,
      title: content.title,
      body: content.body,
      content: content.content,
      placeId: content.firstPlaceId,
      briefingId: briefing.id,
      dedupeKey,
    };
  }

  async function settingsOf(userId: string) {
    return db.selectFrom("settings").selectAll().where("user_id", "=", userId).executeTakeFirstOrThrow();
  }

  return {
    /** "Send a test briefing now": always a new message. */
    async sendNow(briefing: BriefingTable): Promise<MessageTable> {
      const content = await compose(briefing, await settingsOf(briefing.user_id));
      const row = await inbox.write(briefingMessage(briefing, content, `briefing:${briefing.id}:now:${randomUUID()}`));
      inbox.publish(row!);
      return row!;
    },

    /**
     * One scheduler pass: every enabled briefing whose time has come writes one
     * message, keyed by briefing and due time, and moves on to its next run, in one
     * transaction. Run twice, or by two processes, it still writes each message once.
     * `scope` limits it to some users (an engine instance's shards).
     */
    async runDue(scope: UserScope = null): Promise<{ sent: number; skipped: number }> {
      const current = now();
      const due = await db
        .selectFrom("briefings")
        .selectAll()
        .where("enabled", "=", 1)
        .where("next_run_at", "<=", current.toISOString())
        .$if(scope !== null, (query) => query.where((eb) => inScope(eb, "user_id", scope!)))
        .orderBy("next_run_at")
        .limit(500)
        .execute();
      let sent = 0;
      let skipped = 0;
      for (const briefing of due) {
        const dueAt = briefing.next_run_at!;
        const settings = await settingsOf(briefing.user_id);
        const next = nextRunAt(briefing, settings.time_zone, new Date(Math.max(current.getTime(), Date.parse(dueAt))));
        const late = current.getTime() - Date.parse(dueAt) > LATE_LIMIT_MS;
        const content = late ? null : await compose(briefing, settings);
        const written = await db.transaction().execute(async (trx) => {
          const row = content ? await inbox.write(briefingMessage(briefing, content, `briefing:${briefing.id}:${dueAt}`), trx) : null;
          // Only the pass that still sees this due time moves the briefing on.
          await trx
            .updateTable("briefings")
            .set({ next_run_at: next, ...(row ? { last_sent_at: row.created_at } : {}) })
            .where("id", "=", briefing.id)
            .where("next_run_at", "=", dueAt)
            .execute();
          return row;
        });
        if (written) {
          inbox.publish(written);
          sent++;
        } else if (late) {
          skipped++;
        }
      }
      return { sent, skipped };
    },
  };
}

export type BriefingService = ReturnType<typeof createBriefingService>;
