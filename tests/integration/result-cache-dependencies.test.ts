import { sql } from "kysely";
import { describe, expect, it, vi } from "vitest";
import { requireUserId, type ApiContext } from "~/api/context.server";
import type { Db } from "~/api/db/database.server";
import { cacheable } from "~/api/result-cache.server";
import type { SchemaExtension } from "~/api/schema/index.server";
import { testApis, type TestApi } from "../support/api-server";
import {
  TestDepsAddPlaceDocument as ADD,
  TestDepsMeDocument as ME,
  TestDepsMyPlaceLabelsDocument as MY_PLACE_LABELS,
  TestDepsPlaceLabelsDocument as PLACE_LABELS,
  TestDepsRenameFlatDocument as RENAME_FLAT,
  TestDepsSaveBriefingDocument as SAVE_BRIEFING,
  TestDepsSaveRuleDocument as SAVE_RULE,
  TestDepsSettingsDocument as SETTINGS,
  type AlertRuleInput,
  type BriefingInput,
  type Weekday,
} from "../support/documents.generated";

const api = testApis();

// Typed documents (result-cache-dependencies.graphql): answers read with their generated result types. The probes'
// fields are the schema extensions' own, unknown to the generated types: those queries stay strings.
const EVERY_DAY: Weekday[] = ["MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"];

/**
 * Fields the API does not have, whose resolvers are marked cacheable and say nothing of
 * the tables they read: what they read must be found from the SQL they run.
 * - `timeZoneProbe`: the user's settings row, one table.
 * - `rulesProbe`: places joined to alert rules, with a subquery of briefing slots in its
 *   columns and an EXISTS over settings in its conditions.
 * - `unreadProbe`: the user's unread messages, written by the bot's services.
 */
function probes() {
  const runs = { timeZone: 0, rules: 0, unread: 0 };
  const extension: SchemaExtension = {
    typeDefs: `extend type Query { timeZoneProbe: String! rulesProbe: String! unreadProbe: Int! }`,
    resolvers: {
      Query: {
        timeZoneProbe: cacheable(async (_: unknown, __: unknown, context: ApiContext) => {
          runs.timeZone++;
          const row = await context.db
            .selectFrom("settings")
            .select("time_zone")
            .where("user_id", "=", requireUserId(context))
            .executeTakeFirstOrThrow();
          return row.time_zone;
        }),
        rulesProbe: cacheable(async (_: unknown, __: unknown, context: ApiContext) => {
          runs.rules++;
          const rows = await context.db
            .selectFrom("places")
            .innerJoin("alert_rules", "alert_rules.place_id", "places.id")
            .select((eb) => [
              "places.label as place",
              "alert_rules.name as rule",
              eb
                .selectFrom("briefing_places")
                .select((inner) => inner.fn.countAll<number>().as("slots"))
                .whereRef("briefing_places.place_id", "=", "places.id")
                .as("slots"),
            ])
            .where("places.user_id", "=", requireUserId(context))
            .where((eb) =>
              eb.exists(
                eb
                  .selectFrom("settings")
                  .select("settings.user_id")
                  .whereRef("settings.user_id", "=", "places.user_id")
                  .where("settings.time_zone", "=", "UTC"),
              ),
            )
            .orderBy("alert_rules.name")
            .execute();
          return JSON.stringify(rows);
        }),
        unreadProbe: cacheable(async (_: unknown, __: unknown, context: ApiContext) => {
          runs.unread++;
          const row = await context.db
            .selectFrom("messages")
            .select((eb) => eb.fn.countAll<number>().as("unread"))
            .where("user_id", "=", requireUserId(context))
            .where("read_at", "is", null)
            .executeTakeFirstOrThrow();
          return Number(row.unread);
        }),
      },
    },
  };
  return { runs, extension };
}

async function userWithPlace(t: TestApi) {
  const token = await t.signUp();
  await t.gql(SETTINGS, { input: { timeZone: "UTC" } }, { token });
  const placeId = (await t.gql(ADD, { label: "Home" }, { token })).data!.addPlace.id;
  const userId = (await t.gql(ME, {}, { token })).data!.me!.id;
  return { token, placeId, userId };
}

describe("what a cached answer depends on, found from the SQL it ran", () => {
  it("caches no answer of a resolver that reads the database around its request's log, so a write still shows", async () => {
    let runs = 0;
    const shared: { db?: Db } = {};
    const extension: SchemaExtension = {
      typeDefs: `extend type Query { carelessProbe: String! }`,
      resolvers: {
        Query: {
          // Cacheable, but it reads through a Kysely it kept itself: the shared one, which logs for nobody.
          carelessProbe: cacheable(async (_: unknown, __: unknown, context: ApiContext) => {
            runs++;
            const row = await shared
              .db!.selectFrom("settings")
              .select("time_zone")
              .where("user_id", "=", requireUserId(context))
              .executeTakeFirstOrThrow();
            return row.time_zone;
          }),
        },
      },
    };
    const t = await api({ schemaExtensions: [extension] });
    shared.db = t.api.services.db;
    const { token } = await userWithPlace(t);
    const ask = async () => (await t.gql(`{ carelessProbe }`, {}, { token })).data!.carelessProbe;

    expect(await ask()).toBe("UTC");
    expect(await ask()).toBe("UTC");
    expect(runs).toBe(2);
    await t.gql(SETTINGS, { input: { timeZone: "Europe/Berlin" } }, { token });
    expect(await ask()).toBe("Europe/Berlin");
  });

  it("gives resolvers their request's own Kysely, never the shared one", async () => {
    const seen: Db[] = [];
    const extension: SchemaExtension = {
      typeDefs: `extend type Query { dbProbe: Boolean! }`,
      resolvers: {
        Query: {
          dbProbe: (_: unknown, __: unknown, context: ApiContext) => {
            seen.push(context.db);
            return true;
          },
        },
      },
    };
    const t = await api({ schemaExtensions: [extension] });
    const token = await t.signUp();
    await t.gql(`{ dbProbe }`, {}, { token });
    await t.gql(`{ dbProbe }`, {}, { token });
    expect(seen).toHaveLength(2);
    expect(seen[0]).not.toBe(t.api.services.db);
    expect(seen[1]).not.toBe(seen[0]);
  });

  it("runs a resolver again after a write to a table nobody declared", async () => {
    const { runs, extension } = probes();
    const t = await api({ schemaExtensions: [extension] });
    const { token } = await userWithPlace(t);
    const ask = async () => (await t.gql(`{ timeZoneProbe }`, {}, { token })).data!.timeZoneProbe;

    expect(await ask()).toBe("UTC");
    expect(await ask()).toBe("UTC");
    expect(runs.timeZone).toBe(1);
    // A write to a table it did not read leaves the answer cached.
    await t.gql(ADD, { label: "Office" }, { token });
    expect(await ask()).toBe("UTC");
    expect(runs.timeZone).toBe(1);

    await t.gql(SETTINGS, { input: { timeZone: "Europe/Berlin" } }, { token });
    expect(await ask()).toBe("Europe/Berlin");
    expect(runs.timeZone).toBe(2);
  });

  it("counts every table of a join, a subquery in the columns and one in the conditions", async () => {
    const { runs, extension } = probes();
    const t = await api({ schemaExtensions: [extension] });
    const { token, placeId } = await userWithPlace(t);
    const rule: AlertRuleInput = { name: "Gale", placeId, metric: "WIND_GUSTS", comparator: "AT_LEAST", threshold: 60 };
    const ruleId = (await t.gql(SAVE_RULE, { input: rule }, { token })).data!.saveAlertRule.id;
    const ask = async () => JSON.parse((await t.gql(`{ rulesProbe }`, {}, { token })).data!.rulesProbe as string);

    expect(await ask()).toEqual([{ place: "Home", rule: "Gale", slots: 0 }]);
    expect(await ask()).toEqual([{ place: "Home", rule: "Gale", slots: 0 }]);
    expect(runs.rules).toBe(1);

    // The joined table.
    await t.gql(SAVE_RULE, { id: ruleId, input: { ...rule, name: "Storm" } }, { token });
    expect(await ask()).toEqual([{ place: "Home", rule: "Storm", slots: 0 }]);
    expect(runs.rules).toBe(2);

    // The subquery in the columns.
    const briefing: BriefingInput = { name: "Morning", placeIds: [placeId], period: "TODAY", time: "07:00", days: EVERY_DAY };
    expect((await t.gql(SAVE_BRIEFING, { input: briefing }, { token })).errors).toBeUndefined();
    expect(await ask()).toEqual([{ place: "Home", rule: "Storm", slots: 1 }]);
    expect(runs.rules).toBe(3);

    // The subquery in the conditions.
    await t.gql(SETTINGS, { input: { timeZone: "Europe/Berlin" } }, { token });
    expect(await ask()).toEqual([]);
    expect(runs.rules).toBe(4);
    expect(await ask()).toEqual([]);
    expect(runs.rules).toBe(4);
  });

  it("sees the writes of the bot's services and of raw SQL, outside any request", async () => {
    const { runs, extension } = probes();
    const t = await api({ schemaExtensions: [extension] });
    const { token, placeId, userId } = await userWithPlace(t);
    const briefing: BriefingInput = { name: "Morning", placeIds: [placeId], period: "TODAY", time: "07:00", days: EVERY_DAY };
    const briefingId = (await t.gql(SAVE_BRIEFING, { input: briefing }, { token })).data!.saveBriefing.id;
    const ask = async () => (await t.gql(`{ unreadProbe }`, {}, { token })).data!.unreadProbe;

    expect(await ask()).toBe(0);
    expect(await ask()).toBe(0);
    expect(runs.unread).toBe(1);

    // The briefing service writes the message through the inbox.
    const row = await t.api.services.db.selectFrom("briefings").selectAll().where("id", "=", briefingId).executeTakeFirstOrThrow();
    await t.api.services.briefings.sendNow(row);
    expect(await ask()).toBe(1);
    expect(runs.unread).toBe(2);

    await sql`update messages set read_at = ${new Date().toISOString()} where user_id = ${userId}`.execute(t.api.services.db);
    expect(await ask()).toBe(0);
    expect(runs.unread).toBe(3);

    await t.api.services.db.deleteFrom("messages").where("user_id", "=", userId).execute();
    expect(await ask()).toBe(0);
    expect(runs.unread).toBe(4);
  });

  it("counts the tables behind a place list served from memory", async () => {
    const t = await api();
    const token = await t.signUp();
    const id = (await t.gql(ADD, { label: "Home" }, { token })).data!.addPlace.id;
    const lists = vi.spyOn(t.api.services.placeLists, "get");
    const labels = async () => (await t.gql(MY_PLACE_LABELS, {}, { token })).data!.me!.places.map((place) => place.label);
    // Another query reads the list from the database; this one then finds it in memory and runs no SQL for it.
    expect((await t.gql(PLACE_LABELS, {}, { token })).data!.places).toEqual([{ label: "Home" }]);
    expect(await labels()).toEqual(["Home"]);
    expect(await labels()).toEqual(["Home"]);
    expect(lists).toHaveBeenCalledTimes(2);

    await t.gql(RENAME_FLAT, { id }, { token });
    expect(await labels()).toEqual(["Flat"]);
  });
});
