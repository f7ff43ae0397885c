import { randomUUID } from "node:crypto";
import { ALERT_METRICS, type AlertMetric, type Match } from "../bot/alert-evaluator";
import { ruleSpec } from "../bot/alerts.server";
import { parseDays } from "../bot/briefings.server";
import { WEEKDAYS } from "../bot/zoned-time";
import { requireUserId, type ApiContext } from "../context.server";
import type { AlertRuleTable, PlaceTable } from "../db/tables";
import { badInput, notFound } from "../errors.server";
import { parseInput } from "../input.server";
import { alertRuleInput } from "../../shared/inputs/alert-rule";
import { latestTrigger } from "../loaders.server";
import { CONDITIONS } from "../weather/forecast";
import { placeView } from "./places.server";

export const alertRulesTypeDefs = /* GraphQL */ `
  enum AlertMetric { ${ALERT_METRICS.join(" ")} }
  enum Comparator { AT_LEAST AT_MOST }
  enum AlertState { ARMED TRIGGERED SNOOZED }

  "A threshold the bot watches. Thresholds are metric: °C, mm, %, cm, km/h, UV index."
  type AlertRule {
    id: ID!
    name: String!
    enabled: Boolean!
    "Null: every place of the user."
    place: Place
    metric: AlertMetric!
    comparator: Comparator!
    threshold: Float
    conditions: [Condition!]
    lookaheadHours: Int!
    activeDays: [Weekday!]!
    activeFrom: LocalTime
    activeTo: LocalTime
    urgent: Boolean!
    notifyAllClear: Boolean!
    cooldownHours: Int!
    state: AlertState!
    snoozedUntil: DateTime
    lastTriggeredAt: DateTime
  }

  "A window in which a rule's threshold is crossed, and its worst hour."
  type AlertMatch {
    id: ID!
    place: Place!
    from: DateTime!
    to: DateTime!
    peakAt: DateTime!
    peakValue: Float!
  }

  input AlertRuleInput {
    name: String!
    enabled: Boolean = true
    placeId: ID
    metric: AlertMetric!
    comparator: Comparator = AT_LEAST
    threshold: Float
    conditions: [Condition!]
    lookaheadHours: Int = 24
    activeDays: [Weekday!] = [MON, TUE, WED, THU, FRI, SAT, SUN]
    activeFrom: LocalTime
    activeTo: LocalTime
    urgent: Boolean = false
    notifyAllClear: Boolean = false
    cooldownHours: Int = 6
  }

  extend type Message {
    alertRule: AlertRule
    match: AlertMatch
  }

  extend type Query {
    alertRules: [AlertRule!]!
    "When this rule would fire within its look-ahead (nothing is saved)."
    previewAlertRule(input: AlertRuleInput!): [AlertMatch!]!
  }

  extend type Mutation {
    saveAlertRule(id: ID, input: AlertRuleInput!): AlertRule!
    "Silences the rule until the given time (none: 24 hours)."
    snoozeAlertRule(id: ID!, until: DateTime): AlertRule!
    "Ends a snooze: the rule watches again from its next pass."
    resumeAlertRule(id: ID!): AlertRule!
    deleteAlertRule(id: ID!): ID!
  }
`;

type AlertRuleInput = {
  name: string;
  enabled?: boolean | null;
  placeId?: string | null;
  metric: AlertMetric;
  comparator?: string | null;
  threshold?: number | null;
  conditions?: string[] | null;
  lookaheadHours?: number | null;
  activeDays?: string[] | null;
  activeFrom?: string | null;
  activeTo?: string | null;
  urgent?: boolean | null;
  notifyAllClear?: boolean | null;
  cooldownHours?: number | null;
};

export const MAX_RULES = 50;

/** Checks an input and turns it into a row (without ids and times). */
async function ruleFromInput(context: ApiContext, userId: string, given: AlertRuleInput) {
  // The shared schema's reading (a trimmed name) over what GraphQL typed.
  const input = { ...given, ...parseInput(alertRuleInput, given) };
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
  if (input.placeId) {
    const owned = await context.db
      .selectFrom("places")
      .select("id")
      .where("id", "=", input.placeId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    if (!owned) throw notFound("Place");
  }
  return {
    name,
    enabled: input.enabled === false ? 0 : 1,
    place_id: input.placeId ?? null,
    metric: input.metric,
    comparator: input.comparator ?? "AT_LEAST",
    threshold,
    conditions,
    lookahead_hours: lookahead,
    active_days: WEEKDAYS.filter((day) => days.includes(day)).join(","),
    active_from: input.activeFrom ?? null,
    active_to: input.activeTo ?? null,
    urgent: input.urgent ? 1 : 0,
    notify_all_clear: input.notifyAllClear ? 1 : 0,
    cooldown_hours: cooldown,
  };
}

function ruleView(row: AlertRuleTable) {
  return {
    id: row.id,
    userId: row.user_id,
    placeId: row.place_id,
    name: row.name,
    enabled: row.enabled === 1,
    metric: row.metric,
    comparator: row.comparator,
    threshold: row.threshold,
    conditions: row.conditions ? row.conditions.split(",") : null,
    lookaheadHours: row.lookahead_hours,
    activeDays: parseDays(row.active_days),
    activeFrom: row.active_from,
    activeTo: row.active_to,
    urgent: row.urgent === 1,
    notifyAllClear: row.notify_all_clear === 1,
    cooldownHours: row.cooldown_hours,
    snoozedUntil: row.snoozed_until,
  };
}
type RuleView = ReturnType<typeof ruleView>;

function matchView(prefix: string, match: Match & { place: PlaceTable }) {
  const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
  return {
    id: `${prefix}:${match.place.id}:${iso(match.from)}`,
    place: placeView(match.place),
    from: iso(match.from),
    to: iso(match.to),
    peakAt: iso(match.peakAt),
    peakValue: match.peakValue,
  };
}

async function ownRule(context: ApiContext, userId: string, id: string) {
  const row = await context.db.selectFrom("alert_rules").selectAll().where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
  if (!row) throw notFound("Alert rule");
  return row;
}

export const alertRulesResolvers = {
  Query: {
    async alertRules(_: unknown, __: unknown, context: ApiContext) {
      const userId = requireUserId(context);
      const rows = await context.db
        .selectFrom("alert_rules")
        .selectAll()
        .where("user_id", "=", userId)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
      return rows.map(ruleView);
    },
    async previewAlertRule(_: unknown, { input }: { input: AlertRuleInput }, context: ApiContext) {
      const userId = requireUserId(context);
      const fields = await ruleFromInput(context, userId, input);
      const spec = ruleSpec({ ...fields, id: "preview", user_id: userId, snoozed_until: null, created_at: "" });
      const matches = await context.alerts.preview(userId, spec, fields.place_id);
      return matches.map((match) => matchView("preview", match));
    },
  },
  AlertRule: {
    async place(rule: RuleView, _: unknown, context: ApiContext) {
      if (!rule.placeId) return null;
      const row = await context.loaders.place.load({ userId: rule.userId, id: rule.placeId });
      return row ? placeView(row) : null;
    },
    async state(rule: RuleView, _: unknown, context: ApiContext) {
      if (rule.snoozedUntil && Date.parse(rule.snoozedUntil) > context.now().getTime()) return "SNOOZED";
      const states = await context.loaders.alertStates.load({ userId: rule.userId, id: rule.id });
      return states.some((row) => row.state === "TRIGGERED") ? "TRIGGERED" : "ARMED";
    },
    async lastTriggeredAt(rule: RuleView, _: unknown, context: ApiContext) {
      const states = await context.loaders.alertStates.load({ userId: rule.userId, id: rule.id });
      return latestTrigger(states);
    },
  },
  Message: {
    async alertRule(message: { alertRuleId?: string | null; userId: string }, _: unknown, context: ApiContext) {
      if (!message.alertRuleId) return null;
      const row = await context.loaders.alertRule.load({ userId: message.userId, id: message.alertRuleId });
      return row ? ruleView(row) : null;
    },
    async match(message: { matchJson?: string | null; userId: string; alertRuleId?: string | null }, _: unknown, context: ApiContext) {
      if (!message.matchJson) return null;
      const match = JSON.parse(message.matchJson) as Match & { placeId: string };
      const place = await context.loaders.place.load({ userId: message.userId, id: match.placeId });
      return place ? matchView(message.alertRuleId ?? "match", { ...match, place }) : null;
    },
  },
  Mutation: {
    async saveAlertRule(_: unknown, args: { id?: string | null; input: AlertRuleInput }, context: ApiContext) {
      const userId = requireUserId(context);
      const fields = await ruleFromInput(context, userId, args.input);
      if (args.id) {
        const existing = await ownRule(context, userId, args.id);
        const row = { ...existing, ...fields };
        await context.db.transaction().execute(async (trx) => {
          await trx.updateTable("alert_rules").set(fields).where("id", "=", existing.id).where("user_id", "=", userId).execute();
          // Its state is worked out again on the next pass: a rule that now watches something else has no
          // episodes yet (they are keyed by what it watches), one only renamed keeps those it announced.
          await trx.deleteFrom("alert_states").where("rule_id", "=", existing.id).execute();
        });
        return ruleView(row);
      }
      const row: AlertRuleTable = {
        ...fields,
        id: randomUUID(),
        user_id: userId,
        snoozed_until: null,
        created_at: context.now().toISOString(),
      };
      await context.db.transaction().execute(async (trx) => {
        const count = await trx.selectFrom("alert_rules").select("id").where("user_id", "=", userId).execute();
        if (count.length >= MAX_RULES) throw badInput(`You can have up to ${MAX_RULES} alert rules`);
        await trx.insertInto("alert_rules").values(row).execute();
      });
      return ruleView(row);
    },
    async snoozeAlertRule(_: unknown, args: { id: string; until?: string | null }, context: ApiContext) {
      const userId = requireUserId(context);
      const rule = await ownRule(context, userId, args.id);
      const until = args.until ?? new Date(context.now().getTime() + 24 * 3_600_000).toISOString();
      if (Date.parse(until) <= context.now().getTime()) throw badInput("Snooze until a time in the future", "until");
      const snoozedUntil = new Date(until).toISOString();
      await context.db.updateTable("alert_rules").set({ snoozed_until: snoozedUntil }).where("id", "=", rule.id).execute();
      return ruleView({ ...rule, snoozed_until: snoozedUntil });
    },
    async resumeAlertRule(_: unknown, { id }: { id: string }, context: ApiContext) {
      const userId = requireUserId(context);
      const rule = await ownRule(context, userId, id);
      await context.db.updateTable("alert_rules").set({ snoozed_until: null }).where("id", "=", rule.id).execute();
      return ruleView({ ...rule, snoozed_until: null });
    },
    async deleteAlertRule(_: unknown, { id }: { id: string }, context: ApiContext) {
      const userId = requireUserId(context);
      const result = await context.db.deleteFrom("alert_rules").where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) throw notFound("Alert rule");
      return id;
    },
  },
};
