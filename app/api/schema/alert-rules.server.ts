import { randomUUID } from "node:crypto";
import type * as z from "zod/mini";
import { CONDITIONS, WEEKDAYS } from "../../shared/enum-values";
import type { AirQualityScale, AlertState, Condition, StarterRule } from "../../shared/schema-enums.generated";
import type { Match } from "../bot/alert-evaluator";
import { ownerAqiScale } from "../bot/alert-text.server";
import { ruleSpec } from "../bot/alert-watch.server";
import { parseDays } from "../bot/briefings.server";
import { isStarterName, ruleName } from "../bot/starter-names.server";
import { requireUserId, type ApiContext } from "../context.server";
import type { AlertRuleTable, PlaceTable } from "../db/tables";
import { lockUser } from "../db/user-lock.server";
import { timeOrderedId } from "../db/ids.server";
import { badInput, notFound } from "../errors.server";
import { invalidInput, parseInput } from "../input.server";
import { checkInput, type InputIssue } from "../../shared/inputs/issues";
import { alertRuleInput } from "../../shared/inputs/alert-rule";
import { latestTrigger } from "../loaders.server";
import { cacheable, cacheableFields, validUntil } from "../result-cache.server";
import { wakeNow } from "../bot/rule-wakes.server";
import type { AlertRuleInput, AlertRuleResolvers, Resolvers } from "./resolvers.generated";

export const MAX_RULES = 50;

/**
 * Checks an input and turns it into a row (without ids and times). An AQI rule's points are on the scale given, else
 * on the one the rule kept (an edit), else on its owner's now: a rule keeps its scale when its owner's changes (031).
 */
async function ruleFromInput(context: ApiContext, userId: string, given: AlertRuleInput, kept: string | null = null) {
  const fields = ruleFields(given, parseInput(alertRuleInput, given));
  await checkOwnPlaces(context, userId, [fields.place_id]);
  return withAqiScale(context, userId, fields, kept);
}

async function withAqiScale<Fields extends { metric: string; aqi_scale: string | null }>(
  context: ApiContext,
  userId: string,
  fields: Fields,
  kept: string | null = null,
): Promise<Fields> {
  if (fields.metric !== "AQI") return { ...fields, aqi_scale: null };
  const scale = fields.aqi_scale ?? kept ?? ownerAqiScale(await context.loaders.settings.load(userId));
  return { ...fields, aqi_scale: scale };
}

/**
 * Checks every input before any is turned into a row: a batch is saved whole or not at all, and its error names
 * each issue of each input (`inputs.<index>.<field>`), so a client can tell which rule it was.
 */
async function rulesFromInputs(context: ApiContext, userId: string, inputs: readonly AlertRuleInput[]) {
  const issues: InputIssue[] = [];
  const parsed = inputs.map((given, index) => {
    const result = checkInput(alertRuleInput, given);
    if (result.ok) return result.value;
    issues.push(
      ...result.issues.map((issue) => ({ ...issue, field: ["inputs", index, issue.field].filter((part) => part !== "").join(".") })),
    );
    return null;
  });
  if (issues.length > 0) throw invalidInput(issues);
  const rows = inputs.map((given, index) => ruleFields(given, parsed[index]!));
  const placeIds = rows.map((row) => row.place_id);
  await checkOwnPlaces(context, userId, placeIds);
  return Promise.all(rows.map((row) => withAqiScale(context, userId, row)));
}

/** The places named are the user's own (NOT_FOUND otherwise), read in one statement. */
async function checkOwnPlaces(context: ApiContext, userId: string, placeIds: ReadonlyArray<string | null>) {
  const wanted = [...new Set(placeIds.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return;
  const owned = await context.db.selectFrom("places").select("id").where("id", "in", wanted).where("user_id", "=", userId).execute();
  if (owned.length !== wanted.length) throw notFound("Place");
}

/** A checked input's row fields (without ids and times). */
function ruleFields(given: AlertRuleInput, checked: z.output<typeof alertRuleInput>) {
  // The shared schema's reading (a trimmed name) over what GraphQL typed.
  const input = { ...given, ...checked };
  const name = input.name;
  let threshold: number | null = null;
  let conditions: string | null = null;
  if (input.metric === "CONDITION") {
    const chosen = [...new Set(input.conditions ?? [])];
    conditions = CONDITIONS.filter((condition) => chosen.includes(condition)).join(",");
  } else {
    threshold = input.threshold!;
  }
  const lookahead = input.lookaheadHours ?? 24;
  const cooldown = input.cooldownHours ?? 6;
  const days = input.activeDays ?? [...WEEKDAYS];
  return {
    name,
    enabled: input.enabled === false ? 0 : 1,
    place_id: input.placeId ?? null,
    metric: input.metric,
    comparator: input.comparator ?? "AT_LEAST",
    threshold,
    aqi_scale: input.metric === "AQI" ? (input.aqiScale ?? null) : null,
    conditions,
    lookahead_hours: lookahead,
    active_days: WEEKDAYS.filter((day) => days.includes(day)).join(","),
    active_from: input.activeFrom ?? null,
    active_to: input.activeTo ?? null,
    urgent: input.urgent ? 1 : 0,
    notify_all_clear: input.notifyAllClear ? 1 : 0,
    cooldown_hours: cooldown,
    // Saved under its starter's name (in any language), it stays the starter; renamed, it is the user's own.
    starter_key: input.starter && isStarterName(input.starter, name) ? input.starter : null,
  };
}

function matchView(prefix: string, match: Match & { place: PlaceTable }) {
  const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
  return {
    id: `${prefix}:${match.place.id}:${iso(match.from)}`,
    place: match.place,
    from: iso(match.from),
    to: iso(match.to),
    peakAt: iso(match.peakAt),
    peakValue: match.peakValue,
  };
}

/**
 * New rules in one transaction, within the limit counted for all of them at once: an engine pass reads all of them
 * or none (so they are new in the same pass and told in one summary), and a batch never stops half-way.
 */
async function insertRules(context: ApiContext, userId: string, rows: AlertRuleTable[], field?: string) {
  await context.db.transaction().execute(async (trx) => {
    await lockUser(trx, userId);
    const existing = await trx.selectFrom("alert_rules").select("id").where("user_id", "=", userId).execute();
    if (existing.length + rows.length > MAX_RULES) throw badInput(`You can have up to ${MAX_RULES} alert rules`, field);
    await trx.insertInto("alert_rules").values(rows).execute();
  });
}

async function ownRule(context: ApiContext, userId: string, id: string) {
  const row = await context.db.selectFrom("alert_rules").selectAll().where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
  if (!row) throw notFound("Alert rule");
  return row;
}

export const alertRulesResolvers: Resolvers = {
  Query: {
    alertRules: cacheable(async (_, __, context) => {
      const userId = requireUserId(context);
      return context.db.selectFrom("alert_rules").selectAll().where("user_id", "=", userId).orderBy("created_at").orderBy("id").execute();
    }),
    async previewAlertRule(_, { input }, context) {
      const userId = requireUserId(context);
      const fields = await ruleFromInput(context, userId, input);
      const spec = ruleSpec({
        ...fields,
        id: "preview",
        user_id: userId,
        snoozed_until: null,
        created_at: "",
        watched_since: null,
        starter_key: null,
      });
      const matches = await context.alerts.preview(userId, spec, fields.place_id);
      return matches.map((match) => matchView("preview", match));
    },
  },
  AlertRule: {
    // Read from the row alone.
    name: cacheable(async (rule, _, context) => ruleName(rule, (await context.loaders.settings.load(rule.user_id))?.language ?? "EN_US")),
    ...cacheableFields<AlertRuleResolvers>({
      starter: (rule) => (rule.starter_key as StarterRule | null) ?? null,
      enabled: (rule) => rule.enabled === 1,
      aqiScale: (rule) => (rule.metric === "AQI" ? (rule.aqi_scale as AirQualityScale | null) : null),
      conditions: (rule) => (rule.conditions ? (rule.conditions.split(",") as Condition[]) : null),
      lookaheadHours: (rule) => rule.lookahead_hours,
      activeDays: (rule) => parseDays(rule.active_days),
      activeFrom: (rule) => rule.active_from,
      activeTo: (rule) => rule.active_to,
      urgent: (rule) => rule.urgent === 1,
      notifyAllClear: (rule) => rule.notify_all_clear === 1,
      cooldownHours: (rule) => rule.cooldown_hours,
    }),
    // A snooze that is over is no snooze (its end stays stored: the engine reads when it ended).
    snoozedUntil: cacheable((rule, _, context) => {
      const snoozedUntil = rule.snoozed_until ? Date.parse(rule.snoozed_until) : Number.NaN;
      if (!(snoozedUntil > context.now().getTime())) return null;
      validUntil(context, snoozedUntil);
      return rule.snoozed_until;
    }),
    place: cacheable(async (rule, _, context) => {
      if (!rule.place_id) return null;
      return (await context.loaders.place.load({ userId: rule.user_id, id: rule.place_id })) ?? null;
    }),
    // Snoozed until a time: the answer holds until then.
    state: cacheable(async (rule, _, context): Promise<AlertState> => {
      const snoozedUntil = rule.snoozed_until ? Date.parse(rule.snoozed_until) : Number.NaN;
      if (snoozedUntil > context.now().getTime()) {
        validUntil(context, snoozedUntil);
        return "SNOOZED";
      }
      const states = await context.loaders.alertStates.load({ userId: rule.user_id, id: rule.id });
      return states.some((row) => row.state === "TRIGGERED") ? "TRIGGERED" : "ARMED";
    }),
    lastTriggeredAt: cacheable(async (rule, _, context) => {
      const states = await context.loaders.alertStates.load({ userId: rule.user_id, id: rule.id });
      return latestTrigger(states);
    }),
  },
  Message: {
    alertRule: cacheable(async (message, _, context) => {
      if (!message.alert_rule_id) return null;
      return (await context.loaders.alertRule.load({ userId: message.user_id, id: message.alert_rule_id })) ?? null;
    }),
    match: cacheable(async (message, _, context) => {
      if (!message.match_json) return null;
      const match = JSON.parse(message.match_json) as Match & { placeId: string };
      const place = await context.loaders.place.load({ userId: message.user_id, id: match.placeId });
      return place ? matchView(message.alert_rule_id ?? "match", { ...match, place }) : null;
    }),
  },
  Mutation: {
    async saveAlertRule(_, args, context) {
      const userId = requireUserId(context);
      const existing = args.id ? await ownRule(context, userId, args.id) : null;
      const fields = await ruleFromInput(context, userId, args.input, existing?.aqi_scale);
      if (existing) {
        const row = { ...existing, ...fields };
        await context.db.transaction().execute(async (trx) => {
          await trx
            .updateTable("alert_rules")
            // Edited: the engine reads it again at once (decision 026).
            .set({ ...fields, next_wake_at: wakeNow() })
            .where("id", "=", existing.id)
            .where("user_id", "=", userId)
            .execute();
          // Its state is worked out again on the next pass: a rule that now watches something else has no
          // episodes yet (they are keyed by what it watches), one only renamed keeps those it announced.
          await trx.deleteFrom("alert_states").where("rule_id", "=", existing.id).execute();
        });
        return row;
      }
      const row: AlertRuleTable = {
        ...fields,
        id: randomUUID(),
        user_id: userId,
        snoozed_until: null,
        created_at: context.now().toISOString(),
        watched_since: null,
      };
      await insertRules(context, userId, [row]);
      return row;
    },
    async addAlertRules(_, { inputs }, context) {
      const userId = requireUserId(context);
      if (inputs.length > MAX_RULES) throw badInput(`You can have up to ${MAX_RULES} alert rules`, "inputs");
      const fields = await rulesFromInputs(context, userId, inputs);
      const createdAt = context.now().toISOString();
      // Made in the same instant, the rules list in id order (alertRules, the engine's passes): time-ordered ids
      // keep the order given.
      const rows: AlertRuleTable[] = fields.map((row) => ({
        ...row,
        id: timeOrderedId(),
        user_id: userId,
        snoozed_until: null,
        created_at: createdAt,
        watched_since: null,
      }));
      if (rows.length > 0) await insertRules(context, userId, rows, "inputs");
      return rows;
    },
    async snoozeAlertRule(_, args, context) {
      const userId = requireUserId(context);
      const rule = await ownRule(context, userId, args.id);
      const until = args.until ?? new Date(context.now().getTime() + 24 * 3_600_000).toISOString();
      if (Date.parse(until) <= context.now().getTime()) throw badInput("Snooze until a time in the future", "until");
      const snoozedUntil = new Date(until).toISOString();
      // The engine looks at it again when the snooze ends (decision 026).
      await context.db
        .updateTable("alert_rules")
        .set({ snoozed_until: snoozedUntil, next_wake_at: snoozedUntil })
        .where("id", "=", rule.id)
        .execute();
      return { ...rule, snoozed_until: snoozedUntil };
    },
    async resumeAlertRule(_, { id }, context) {
      const userId = requireUserId(context);
      const rule = await ownRule(context, userId, id);
      // A snooze under way ends now; its end stays stored, as a snooze that ran out keeps its own: the engine
      // reads when a snooze ended (alert-evaluator.ts, planEpisodes).
      const now = context.now();
      if (!rule.snoozed_until || Date.parse(rule.snoozed_until) <= now.getTime()) return rule;
      await context.db
        .updateTable("alert_rules")
        .set({ snoozed_until: now.toISOString(), next_wake_at: wakeNow() })
        .where("id", "=", rule.id)
        .execute();
      return { ...rule, snoozed_until: now.toISOString() };
    },
    async deleteAlertRule(_, { id }, context) {
      const userId = requireUserId(context);
      const result = await context.db.deleteFrom("alert_rules").where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) throw notFound("Alert rule");
      return id;
    },
  },
};
