import { randomUUID } from "node:crypto";
import { hashPassword, verifyPassword, type PasswordHashCost } from "../auth/password.server";
import { createSession, revokeSession } from "../auth/sessions.server";
import { rescheduleBriefings } from "../bot/briefings.server";
import { requireUserId, type ApiContext } from "../context.server";
import { defaultSettings } from "../db/settings-rows";
import type { SettingsTable, UserTable } from "../db/tables";
import { isUniqueViolation } from "../db/unique-violation.server";
import { apiError } from "../errors.server";
import { inputIssue, parseInput } from "../input.server";
import { cacheable, cacheableFields } from "../result-cache.server";
import type { Resolvers, SettingsResolvers } from "./resolvers.generated";
import type { PrecipitationUnit, TemperatureUnit, WindSpeedUnit } from "../../shared/schema-enums.generated";
import { EMAIL_MAX_LENGTH, logInInput, signUpInput } from "../../shared/inputs/account";
import { settingsInput } from "../../shared/inputs/settings";
import { wakeRulesOf } from "../bot/rule-wakes.server";
import { wakeWarnings } from "../bot/warning-wakes.server";
import { heldPushesDueNow } from "../bot/push.server";

// Verifying against this when the account does not exist keeps "no such email" as slow as "wrong password".
const dummyHashes = new Map<PasswordHashCost, Promise<string>>();
function dummyHash(cost: PasswordHashCost): Promise<string> {
  let hash = dummyHashes.get(cost);
  if (!hash) dummyHashes.set(cost, (hash = hashPassword("weatherbot-timing-equaliser", cost)));
  return hash;
}

const LOGIN_FAILED = "Email or password is not right";

async function sessionFor(context: ApiContext, user: UserTable) {
  const session = await createSession(context.db, user.id, context.now(), context.userAgent);
  return { id: session.id, token: session.token, expiresAt: session.expires_at, user };
}

export const accountResolvers: Resolvers = {
  Query: {
    me: cacheable((_, __, context) => context.session?.user ?? null),
  },
  User: {
    createdAt: cacheable((user) => user.created_at),
    settings: cacheable((user, _, context) => context.loaders.settings.load(user.id)),
  },
  // Read from the row alone.
  Settings: cacheableFields<SettingsResolvers>({
    id: (settings) => settings.user_id,
    timeZone: (settings) => settings.time_zone,
    hour12: (settings) => settings.hour12 === 1,
    temperatureUnit: (settings) => settings.temperature_unit as TemperatureUnit,
    windSpeedUnit: (settings) => settings.wind_speed_unit as WindSpeedUnit,
    precipitationUnit: (settings) => settings.precipitation_unit as PrecipitationUnit,
    quietHoursEnabled: (settings) => settings.quiet_hours_enabled === 1,
    quietFrom: (settings) => settings.quiet_from,
    quietTo: (settings) => settings.quiet_to,
    pushEnabled: (settings) => settings.push_enabled === 1,
  }),
  Mutation: {
    async signUp(_, args, context) {
      const { email } = parseInput(signUpInput, args);
      const language = args.language ?? "EN_US";
      const timeZone = args.timeZone ?? "UTC";
      const existing = await context.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst();
      if (existing) throw inputIssue("email", "EMAIL_TAKEN");

      const user: UserTable = {
        id: randomUUID(),
        email,
        password_hash: await context.hashSlots.run(() => hashPassword(args.password, context.passwordHashCost)),
        created_at: context.now().toISOString(),
      };
      try {
        await context.db.transaction().execute(async (trx) => {
          await trx.insertInto("users").values(user).execute();
          await trx
            .insertInto("settings")
            .values(defaultSettings(user.id, language, timeZone, args.region))
            .execute();
          // Whatever places come, the engine decides the user's official warnings once (decision 026).
          await wakeWarnings(trx, [user.id]);
        });
      } catch (error) {
        // Two sign-ups with one email at the same moment: the unique index decides.
        if (isUniqueViolation(error)) throw inputIssue("email", "EMAIL_TAKEN");
        throw error;
      }
      return sessionFor(context, user);
    },

    async logIn(_, args, context) {
      const email = parseInput(logInInput, args).email.slice(0, EMAIL_MAX_LENGTH);
      // Counted before the password is checked: parallel attempts meet the limits one by one.
      const attempt = await context.loginGuard.begin(email, context.clientIp);
      let passwordOk: boolean;
      let user: UserTable | undefined;
      try {
        user = await context.db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();
        const stored = user?.password_hash ?? (await dummyHash(context.passwordHashCost));
        passwordOk = args.password.length <= 1024 && (await context.hashSlots.run(() => verifyPassword(args.password, stored)));
      } catch (error) {
        await attempt.abandoned();
        throw error;
      }
      if (!user || !passwordOk) throw apiError("UNAUTHENTICATED", LOGIN_FAILED);
      await attempt.succeeded();
      return sessionFor(context, user);
    },

    async logOut(_, __, context) {
      if (!context.session) return false;
      await revokeSession(context.db, context.session.id, context.now());
      // Its open subscriptions end and its sockets close now, not at their next message.
      context.sessionEnds.end(context.session.id);
      return true;
    },

    async updateSettings(_, { input }, context) {
      const userId = requireUserId(context);
      parseInput(settingsInput, input);
      const changes: Partial<SettingsTable> = {};
      const columns: Record<string, keyof SettingsTable> = {
        language: "language",
        timeZone: "time_zone",
        temperatureUnit: "temperature_unit",
        windSpeedUnit: "wind_speed_unit",
        precipitationUnit: "precipitation_unit",
        quietFrom: "quiet_from",
        quietTo: "quiet_to",
      };
      const flags: Record<string, keyof SettingsTable> = {
        hour12: "hour12",
        quietHoursEnabled: "quiet_hours_enabled",
        pushEnabled: "push_enabled",
      };
      for (const [field, value] of Object.entries(input)) {
        if (value === null || value === undefined) continue;
        if (columns[field]) (changes as Record<string, unknown>)[columns[field]] = value;
        if (flags[field]) (changes as Record<string, unknown>)[flags[field]] = value ? 1 : 0;
      }
      if (Object.keys(changes).length > 0) {
        await context.db.transaction().execute(async (trx) => {
          const before = await trx.selectFrom("settings").select("time_zone").where("user_id", "=", userId).executeTakeFirstOrThrow();
          await trx.updateTable("settings").set(changes).where("user_id", "=", userId).execute();
          // The rules read the time zone and units: read them again (decision 026).
          await wakeRulesOf(trx, userId);
          await wakeWarnings(trx, [userId]);
          await heldPushesDueNow(trx, userId, context.now());
          if (changes.time_zone && changes.time_zone !== before.time_zone)
            await rescheduleBriefings(trx, userId, changes.time_zone, context.now());
        });
      }
      return context.db.selectFrom("settings").selectAll().where("user_id", "=", userId).executeTakeFirstOrThrow();
    },
  },
};
