import { randomUUID } from "node:crypto";
import { deliveryText, parseDelivery } from "../bot/briefing-delivery";
import { nextRunAt, parseDays } from "../bot/briefings.server";
import { WEEKDAYS } from "../../shared/enum-values";
import { requireUserId, type ApiContext } from "../context.server";
import type { BriefingTable } from "../db/tables";
import { removeBriefingWithSnapshot, restoreRemovedBriefing } from "../db/briefing-removal.server";
import { RESTORE_WINDOW_MS } from "../db/removed-items.server";
import { lockUser } from "../db/user-lock.server";
import { apiError, badInput, notFound } from "../errors.server";
import { inputIssue, parseInput } from "../input.server";
import { briefingInput } from "../../shared/inputs/briefing";
import { cacheable, cacheableFields } from "../result-cache.server";
import type { BriefingResolvers, Resolvers } from "./resolvers.generated";

export const MAX_BRIEFINGS = 20;

async function ownBriefing(context: ApiContext, userId: string, id: string) {
  const row = await context.db.selectFrom("briefings").selectAll().where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
  if (!row) throw notFound("Briefing");
  return row;
}

export const briefingsResolvers: Resolvers = {
  Query: {
    briefings: cacheable(async (_, __, context) => {
      const userId = requireUserId(context);
      return context.db.selectFrom("briefings").selectAll().where("user_id", "=", userId).orderBy("created_at").orderBy("id").execute();
    }),
  },
  Briefing: {
    // Read from the row alone.
    ...cacheableFields<BriefingResolvers>({
      enabled: (briefing) => briefing.enabled === 1,
      days: (briefing) => parseDays(briefing.days),
      nextRunAt: (briefing) => briefing.next_run_at,
      lastSentAt: (briefing) => briefing.last_sent_at,
      delivery: (briefing) => parseDelivery(briefing.delivery),
    }),
    places: cacheable((briefing, _, context) => context.loaders.briefingPlaces.load({ userId: briefing.user_id, id: briefing.id })),
  },
  Mutation: {
    async saveBriefing(_, args, context) {
      const userId = requireUserId(context);
      const input = parseInput(briefingInput, args.input);
      const { name, placeIds } = input;
      const owned = await context.db.selectFrom("places").select("id").where("user_id", "=", userId).where("id", "in", placeIds).execute();
      if (owned.length !== placeIds.length) throw inputIssue("placeIds", "PLACES_NOT_OWNED");
      const settings = await context.db.selectFrom("settings").select("time_zone").where("user_id", "=", userId).executeTakeFirstOrThrow();

      const id = args.id ?? randomUUID();
      const existing = args.id ? await ownBriefing(context, userId, args.id) : null;
      const delivery = args.input.delivery ?? (existing ? parseDelivery(existing.delivery) : ["PUSH" as const]);
      if (delivery.includes("EMAIL") && !context.mail.available) throw inputIssue("delivery", "EMAIL_DELIVERY_UNAVAILABLE");
      const row: BriefingTable = {
        id,
        user_id: userId,
        name,
        enabled: input.enabled === false ? 0 : 1,
        period: input.period,
        time: input.time,
        days: WEEKDAYS.filter((day) => input.days.includes(day)).join(","),
        next_run_at: null,
        last_sent_at: existing?.last_sent_at ?? null,
        created_at: existing?.created_at ?? context.now().toISOString(),
        delivery: deliveryText(delivery),
      };
      row.next_run_at = nextRunAt(row, settings.time_zone, context.now());
      await context.db.transaction().execute(async (trx) => {
        await lockUser(trx, userId);
        if (existing) {
          await trx.updateTable("briefings").set(row).where("id", "=", id).where("user_id", "=", userId).execute();
          await trx.deleteFrom("briefing_places").where("briefing_id", "=", id).execute();
        } else {
          const count = await trx.selectFrom("briefings").select("id").where("user_id", "=", userId).execute();
          if (count.length >= MAX_BRIEFINGS) throw badInput(`You can have up to ${MAX_BRIEFINGS} briefings`);
          await trx.insertInto("briefings").values(row).execute();
        }
        await trx
          .insertInto("briefing_places")
          .values(placeIds.map((placeId, position) => ({ briefing_id: id, place_id: placeId, position })))
          .execute();
      });
      return row;
    },
    async deleteBriefing(_, { id }, context) {
      const userId = requireUserId(context);
      const removed = await context.db.transaction().execute((trx) => removeBriefingWithSnapshot(trx, userId, id, context.now()));
      if (!removed) throw notFound("Briefing");
      return id;
    },
    async restoreBriefing(_, { id }, context) {
      const userId = requireUserId(context);
      const row = await context.db.transaction().execute(async (trx) => {
        await lockUser(trx, userId);
        const count = await trx.selectFrom("briefings").select("id").where("user_id", "=", userId).execute();
        if (count.length >= MAX_BRIEFINGS) throw badInput(`You can have up to ${MAX_BRIEFINGS} briefings`);
        const restored = await restoreRemovedBriefing(trx, userId, id, context.now());
        if (!restored) return null;
        // A run that fell due while it was gone is not sent late: it waits for its next time.
        const settings = await trx.selectFrom("settings").select("time_zone").where("user_id", "=", userId).executeTakeFirstOrThrow();
        const next = { ...restored, next_run_at: nextRunAt(restored, settings.time_zone, context.now()) };
        await trx.updateTable("briefings").set({ next_run_at: next.next_run_at }).where("id", "=", id).execute();
        return next;
      });
      if (!row) {
        throw apiError("NOT_FOUND", `Nothing to restore: no briefing was deleted here in the last ${RESTORE_WINDOW_MS / 60_000} minutes`);
      }
      return row;
    },
    async sendBriefingNow(_, { id }, context) {
      const userId = requireUserId(context);
      const briefing = await ownBriefing(context, userId, id);
      return context.briefings.sendNow(briefing);
    },
  },
};
