import { randomUUID } from "node:crypto";
import type { Transaction } from "kysely";
import type { Db } from "../db/database.server";
import type { BriefingTable, Database, MessageTable, SettingsTable } from "../db/tables";
import type { ForecastService } from "../weather/forecast-service.server";
import type { BriefingPeriod, Weekday } from "../../shared/schema-enums.generated";
import { briefingContent, periodWindow, placeFigures } from "./briefing-text.server";
import { queueBriefingMail } from "../mail/briefing-mail.server";
import { NO_MAIL, type MailService } from "../mail/mail-service.server";
import { emailsBriefing } from "./briefing-delivery";
import type { Inbox } from "./inbox.server";
import { formatContent } from "./message-text.server";
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
  mail = NO_MAIL,
}: {
  db: Db;
  inbox: Inbox;
  forecasts: ForecastService;
  now: () => Date;
  /** Briefings set to arrive by email are queued here with their message (unless the server sends no mail). */
  mail?: MailService;
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
    return { ...formatContent(content, settings), content, firstPlaceId: places[0]?.id ?? null };
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

  /** In the transaction that wrote the message: its mail too, when the briefing is emailed. True when one was queued. */
  async function mailWith(
    trx: Db,
    row: MessageTable,
    briefing: BriefingTable,
    settings: SettingsTable,
    text: { title: string; body: string },
  ) {
    if (!emailsBriefing(briefing) || !mail.available) return false;
    return queueBriefingMail(trx, mail, { message: row, briefing, language: settings.language, text });
  }

  return {
    /** "Send a test briefing now": always a new message. */
    async sendNow(briefing: BriefingTable): Promise<MessageTable> {
      const settings = await settingsOf(briefing.user_id);
      const content = await compose(briefing, settings);
      const { row, mailed } = await db.transaction().execute(async (trx) => {
        const written = (await inbox.write(briefingMessage(briefing, content, `briefing:${briefing.id}:now:${randomUUID()}`), trx))!;
        return { row: written, mailed: await mailWith(trx, written, briefing, settings, content) };
      });
      inbox.publish(row);
      if (mailed) mail.nudge();
      return row;
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
      let mailed = false;
      for (const briefing of due) {
        const dueAt = briefing.next_run_at!;
        const settings = await settingsOf(briefing.user_id);
        const next = nextRunAt(briefing, settings.time_zone, new Date(Math.max(current.getTime(), Date.parse(dueAt))));
        const late = current.getTime() - Date.parse(dueAt) > LATE_LIMIT_MS;
        const content = late ? null : await compose(briefing, settings);
        const written = await db.transaction().execute(async (trx) => {
          const row = content ? await inbox.write(briefingMessage(briefing, content, `briefing:${briefing.id}:${dueAt}`), trx) : null;
          // Only with a message written here: a pass that finds it written (another instance, a rerun) queues nothing.
          if (row && content && (await mailWith(trx, row, briefing, settings, content))) mailed = true;
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
      // Sent in the background by whichever instance claims them; this pass only woke its own sender.
      if (mailed) mail.nudge();
      return { sent, skipped };
    },
  };
}

export type BriefingService = ReturnType<typeof createBriefingService>;
