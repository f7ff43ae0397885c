import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import webpush from "web-push";
import type { Db } from "../db/database.server";
import type { MessageTable, SettingsTable } from "../db/tables";
import { apiLog } from "../log.server";
import { noMetrics, type ApiMetrics } from "../metrics.server";
import { postPush, type EndpointPolicy } from "./push-endpoint.server";
import { parseDelivery } from "./briefing-delivery";
import { messageText } from "./message-text.server";
import { inScope, type UserScope } from "./shard-ranges";
import { botTexts } from "./texts.server";
import { nextOccurrence, zonedParts } from "./zoned-time";
import { WEEKDAYS } from "../../shared/enum-values";

export type VapidKeys = { publicKey: string; privateKey: string };

/** VAPID keys: generated on first start and kept in the data directory (owner-only). */
export function loadVapidKeys(dataDir: string): VapidKeys {
  const file = path.join(dataDir, "vapid.json");
  try {
    return JSON.parse(readFileSync(file, "utf8")) as VapidKeys;
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const keys = webpush.generateVAPIDKeys();
    try {
      writeFileSync(file, JSON.stringify(keys), { mode: 0o600, flag: "wx" });
      return keys;
    } catch {
      return JSON.parse(readFileSync(file, "utf8")) as VapidKeys; // another process was first
    }
  }
}

type QuietHours = Pick<SettingsTable, "quiet_hours_enabled" | "quiet_from" | "quiet_to" | "time_zone">;

/** Is `instant` inside the user's quiet hours (which may wrap midnight)? */
export function inQuietHours(settings: QuietHours, instant: Date) {
  if (settings.quiet_hours_enabled !== 1 || settings.quiet_from === settings.quiet_to) return false;
  const time = zonedParts(instant, settings.time_zone).time;
  return settings.quiet_from < settings.quiet_to
    ? time >= settings.quiet_from && time < settings.quiet_to
    : time >= settings.quiet_from || time < settings.quiet_to;
}

/** When the quiet hours around `instant` end: a held push is due then (held_pushes.due_at). */
export function quietHoursEnd(settings: QuietHours, instant: Date): Date {
  return nextOccurrence(instant, settings.quiet_to, WEEKDAYS, settings.time_zone) ?? instant;
}

/**
 * A user's held pushes are due now: their settings changed, and the quiet hours (or the zone
 * they are kept in) may end sooner than when the pushes were held. The next tick reads them
 * again and holds them on to the new end if the user is still in quiet hours.
 */
export async function heldPushesDueNow(db: Db, userId: string, now: Date): Promise<void> {
  await db.updateTable("held_pushes").set({ due_at: now.toISOString() }).where("user_id", "=", userId).execute();
}

export type PushPayload = { title: string; body: string; tag: string; url: string; kind: string };

/** The tag of a tick's summary notification: each replaces the one before (the service worker alerts again). */
export const GROUP_TAG = "weatherbot-messages";

/**
 * Web Push delivery. Every published message goes to the user's subscriptions unless
 * push is off; during quiet hours it is held (the inbox is not), unless urgent; held
 * pushes go out as one digest when quiet hours end. A subscription the push service
 * says is gone (404/410) is removed. Requests are built by web-push and sent by postPush,
 * only to public addresses (see push-endpoint.server.ts).
 */
export function createPushService({
  db,
  now,
  vapid,
  subject,
  endpointPolicy = { allowLoopback: false },
  metrics = noMetrics,
}: {
  db: Db;
  now: () => Date;
  vapid: VapidKeys;
  subject: string;
  /** Which endpoints may be posted to (loopback only for tests: PUSH_ALLOW_LOOPBACK). */
  endpointPolicy?: EndpointPolicy;
  metrics?: ApiMetrics;
}) {
  async function sendToUser(userId: string, payload: PushPayload, urgent: boolean): Promise<number> {
    const subscriptions = await db.selectFrom("push_subscriptions").selectAll().where("user_id", "=", userId).execute();
    let delivered = 0;
    await Promise.all(
      subscriptions.map(async (subscription) => {
        const request = webpush.generateRequestDetails(
          { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
          JSON.stringify(payload),
          {
            vapidDetails: { subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
            TTL: 24 * 3600,
            urgency: urgent ? "high" : "normal",
          },
        );
        try {
          // Checked again here: rows saved before the rules, and names that now resolve elsewhere.
          const status = await postPush(
            request.endpoint,
            { method: request.method, headers: request.headers as Record<string, string>, body: (request.body as Buffer | null) ?? null },
            endpointPolicy,
          );
          if (status === 404 || status === 410) {
            metrics.pushSent("gone");
            await db.deleteFrom("push_subscriptions").where("id", "=", subscription.id).execute();
          } else if (status >= 200 && status < 300) {
            metrics.pushSent("delivered");
            delivered++;
          } else {
            metrics.pushSent("refused");
            apiLog.warn({}, `[push] ${new URL(subscription.endpoint).host} answered ${status}`);
          }
        } catch (error) {
          metrics.pushSent("unreachable");
          apiLog.warn({}, `[push] could not reach ${new URL(subscription.endpoint).host}: ${(error as Error).message}`);
        }
      }),
    );
    return delivered;
  }

  // A pass can publish thousands of messages: read each user's settings at most once a second, not once per message.
  const settingsCache = new Map<string, { at: number; row: Promise<SettingsTable | undefined> }>();
  function settingsOf(userId: string) {
    const cached = settingsCache.get(userId);
    if (cached && Date.now() - cached.at < 1_000) return cached.row;
    const row = db.selectFrom("settings").selectAll().where("user_id", "=", userId).executeTakeFirst();
    settingsCache.set(userId, { at: Date.now(), row });
    if (settingsCache.size > 10_000) settingsCache.clear();
    return row;
  }

  /** The messages that go to push: all but those of briefings whose owner chose other channels (BriefingTable.delivery). */
  async function pushed(messages: MessageTable[]): Promise<MessageTable[]> {
    const briefingIds = [
      ...new Set(messages.flatMap((message) => (message.kind === "BRIEFING" && message.briefing_id ? [message.briefing_id] : []))),
    ];
    if (briefingIds.length === 0) return messages;
    const rows = await db.selectFrom("briefings").select(["id", "delivery"]).where("id", "in", briefingIds).execute();
    const quiet = new Set(rows.filter((row) => !parseDelivery(row.delivery).includes("PUSH")).map((row) => row.id));
    return quiet.size === 0
      ? messages
      : messages.filter((message) => !(message.kind === "BRIEFING" && quiet.has(message.briefing_id ?? "")));
  }

  const service = {
    /** Which endpoints savePushSubscription accepts: the same ones this service posts to. */
    endpointPolicy,

    /** The users whose settings are cached (user-caches.server.ts: a deleted account's are dropped). */
    users: () => settingsCache.keys(),
    forgetUser(userId: string) {
      settingsCache.delete(userId);
    },

    /** Delivers (or holds) one message; returns what happened, for tests and logs. */
    async deliver(message: MessageTable): Promise<"off" | "held" | number> {
      const settings = await settingsOf(message.user_id);
      if (!settings || settings.push_enabled !== 1) return "off";
      if ((await pushed([message])).length === 0) return "off";
      // One instant for the check and the due time: read twice, a push held at 06:59:59.999 was due at the next
      // day's end of quiet hours.
      const at = now();
      if (message.urgent !== 1 && inQuietHours(settings, at)) {
        await db
          .insertInto("held_pushes")
          .values({
            message_id: message.id,
            user_id: message.user_id,
            created_at: at.toISOString(),
            due_at: quietHoursEnd(settings, at).toISOString(),
          })
          .onConflict((conflict) => conflict.column("message_id").doNothing())
          .execute();
        return "held";
      }
      // Formatted as the recipient reads now (their language, units and clock may have changed since it was written).
      const { title, body } = messageText(message, settings);
      return sendToUser(
        message.user_id,
        { title, body, tag: message.id, url: `/?message=${message.id}`, kind: message.kind },
        message.urgent === 1,
      );
    },

    /**
     * Delivers (or holds) the messages of one tick, at most one notification per user for those
     * not urgent: one message as itself, several as one summary ("3 new messages", their titles)
     * under one tag, so the next tick's replaces it rather than stacking. Urgent ones go each on
     * their own; in quiet hours the rest are held for the digest, as one message would be.
     */
    async deliverTogether(all: MessageTable[]): Promise<void> {
      const messages = await pushed(all);
      const byUser = new Map<string, MessageTable[]>();
      for (const message of messages) byUser.set(message.user_id, [...(byUser.get(message.user_id) ?? []), message]);
      await Promise.all(
        [...byUser.values()].map(async (own) => {
          const urgent = own.filter((message) => message.urgent === 1);
          const rest = own.filter((message) => message.urgent !== 1);
          const settings = rest.length > 1 ? await settingsOf(own[0]!.user_id) : undefined;
          const together = rest.length > 1 && settings?.push_enabled === 1 && !inQuietHours(settings, now());
          await Promise.all([...urgent, ...(together ? [] : rest)].map((message) => service.deliver(message)));
          if (!together) return;
          const t = botTexts(settings.language);
          await sendToUser(
            settings.user_id,
            {
              title: t("push.groupTitle", { count: rest.length }),
              body: rest.map((message) => messageText(message, settings).title).join("\n"),
              tag: GROUP_TAG,
              url: "/",
              kind: "GROUP",
            },
            false,
          );
        }),
      );
    },

    /**
     * Sends one digest to every user (in `scope`: an engine instance's shards) whose held pushes
     * are due (their quiet hours are over). Reads only the due ones, by index: a tick in quiet
     * hours reads nothing however many pushes are held.
     */
    async sendDigests(scope: UserScope = null): Promise<number> {
      const at = now();
      const due = await db
        .selectFrom("held_pushes")
        .select("user_id")
        .distinct()
        .where("due_at", "<=", at.toISOString())
        .$if(scope !== null, (query) => query.where((eb) => inScope(eb, "user_id", scope!)))
        .execute();
      let sent = 0;
      for (const { user_id: userId } of due) {
        // Read fresh, not from the per-second cache: a settings change is what made these due.
        const settings = await db.selectFrom("settings").selectAll().where("user_id", "=", userId).executeTakeFirst();
        if (!settings) continue;
        if (inQuietHours(settings, at)) {
          // Due by a settings change, still quiet by the new ones: due again when these quiet hours end.
          await db
            .updateTable("held_pushes")
            .set({ due_at: quietHoursEnd(settings, at).toISOString() })
            .where("user_id", "=", userId)
            .execute();
          continue;
        }
        // Taken off the list first, and only what this process itself took goes out: an instance that
        // races another on the same user (a lease taken over) cannot send a held push twice.
        const taken = (await db.deleteFrom("held_pushes").where("user_id", "=", userId).returning("message_id").execute()).map(
          (row) => row.message_id,
        );
        if (settings.push_enabled !== 1 || taken.length === 0) continue;
        const rows = await db
          .selectFrom("messages")
          .select(["id", "title", "body", "content"])
          .where("id", "in", taken)
          .orderBy("id")
          .execute();
        const t = botTexts(settings.language);
        await sendToUser(
          userId,
          {
            title: t("push.digestTitle", { count: rows.length }),
            body: rows.map((row) => messageText(row, settings).title).join("\n"),
            tag: `digest-${randomUUID()}`,
            url: "/",
            kind: "DIGEST",
          },
          false,
        );
        sent++;
      }
      return sent;
    },
  };
  return service;
}

export type PushService = ReturnType<typeof createPushService>;
