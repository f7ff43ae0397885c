import { randomUUID } from "node:crypto";
import { hashPassword, passwordProblem, verifyPassword } from "../auth/password.server";
import { createSession, revokeSession } from "../auth/sessions.server";
import { rescheduleBriefings } from "../bot/briefings.server";
import { requireUserId, type ApiContext } from "../context.server";
import { isRegion } from "../../lib/regional-defaults";
import { defaultSettings, settingsView } from "../db/settings-rows";
import type { SettingsTable, UserTable } from "../db/tables";
import { apiError, badInput } from "../errors.server";
import { keepable } from "../result-cache.server";
import { isTimeZone } from "../../shared/time-zone";

const EMAIL_MAX_LENGTH = 254;
// Deliberately loose: one @, something on each side, a dot in the domain, no spaces.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// Control characters (NUL, bell, ...) and invisible format characters (bidi overrides, zero widths) have no place in an address.
const INVISIBLE = /[\p{Cc}\p{Cf}]/u;

function normaliseEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email) || INVISIBLE.test(email)) {
    throw badInput("Enter a valid email address", "email", "EMAIL_INVALID");
  }
  return email;
}

export function userView(row: Pick<UserTable, "id" | "email" | "created_at">) {
  return { id: row.id, email: row.email, createdAt: row.created_at };
}

// Verifying against this when the account does not exist keeps "no such email" as slow as "wrong password".
const dummyHash = hashPassword("weatherbot-timing-equaliser");

const LOGIN_FAILED = "Email or password is not right";

async function sessionFor(context: ApiContext, user: UserTable) {
  const session = await createSession(context.db, user.id, context.now());
  return { id: session.id, token: session.token, expiresAt: session.expires_at, user: userView(user) };
}

export const accountResolvers = {
  Query: {
    me: keepable(["users"], (_: unknown, __: unknown, context: ApiContext) => context.session?.user ?? null),
  },
  User: {
    async settings(user: { id: string }, _: unknown, context: ApiContext) {
      const row = await context.db.selectFrom("settings").selectAll().where("user_id", "=", user.id).executeTakeFirstOrThrow();
      return settingsView(row);
    },
  },
  Mutation: {
    async signUp(
      _: unknown,
      args: { email: string; password: string; language?: string | null; timeZone?: string | null; region?: string | null },
      context: ApiContext,
    ) {
      const email = normaliseEmail(args.email);
      const problem = passwordProblem(args.password, email);
      if (problem) throw badInput(problem.message, "password", problem.reason);
      if (args.region != null && !isRegion(args.region)) throw badInput("region must be a two-letter country code such as GB", "region");
      const language = args.language ?? "EN_US";
      const timeZone = args.timeZone ?? "UTC";
      const existing = await context.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst();
      if (existing) throw badInput("An account with this email already exists; log in instead", "email", "EMAIL_TAKEN");

      const user: UserTable = {
        id: randomUUID(),
        email,
        password_hash: await context.hashSlots.run(() => hashPassword(args.password)),
        created_at: context.now().toISOString(),
      };
      try {
        await context.db.transaction().execute(async (trx) => {
          await trx.insertInto("users").values(user).execute();
          await trx
            .insertInto("settings")
            .values(defaultSettings(user.id, language, timeZone, args.region))
            .execute();
        });
      } catch (error) {
        // Two sign-ups with one email at the same moment: the unique index decides.
        if (/UNIQUE/i.test(String(error)))
          throw badInput("An account with this email already exists; log in instead", "email", "EMAIL_TAKEN");
        throw error;
      }
      return sessionFor(context, user);
    },

    async logIn(_: unknown, args: { email: string; password: string }, context: ApiContext) {
      const email = args.email.trim().toLowerCase().slice(0, EMAIL_MAX_LENGTH);
      // Counted before anything is awaited: parallel attempts meet the limits one by one.
      const attempt = context.loginGuard.begin(email, context.clientIp);
      let passwordOk: boolean;
      let user: UserTable | undefined;
      try {
        user = await context.db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();
        const stored = user?.password_hash ?? (await dummyHash);
        passwordOk = args.password.length <= 1024 && (await context.hashSlots.run(() => verifyPassword(args.password, stored)));
      } catch (error) {
        attempt.abandoned();
        throw error;
      }
      if (!user || !passwordOk) throw apiError("UNAUTHENTICATED", LOGIN_FAILED);
      attempt.succeeded();
      return sessionFor(context, user);
    },

    async logOut(_: unknown, __: unknown, context: ApiContext) {
      if (!context.session) return false;
      await revokeSession(context.db, context.session.id, context.now());
      // Its open subscriptions end and its sockets close now, not at their next message.
      context.sessionEnds.end(context.session.id);
      return true;
    },

    async updateSettings(_: unknown, { input }: { input: Record<string, unknown> }, context: ApiContext) {
      const userId = requireUserId(context);
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
        if (field === "timeZone" && !isTimeZone(String(value))) throw badInput("Unknown time zone", "timeZone");
        if (columns[field]) (changes as Record<string, unknown>)[columns[field]] = value;
        if (flags[field]) (changes as Record<string, unknown>)[flags[field]] = value ? 1 : 0;
      }
      if (Object.keys(changes).length > 0) {
        await context.db.transaction().execute(async (trx) => {
          const before = await trx.selectFrom("settings").select("time_zone").where("user_id", "=", userId).executeTakeFirstOrThrow();
          await trx.updateTable("settings").set(changes).where("user_id", "=", userId).execute();
          if (changes.time_zone && changes.time_zone !== before.time_zone)
            await rescheduleBriefings(trx, userId, changes.time_zone, context.now());
        });
      }
      const row = await context.db.selectFrom("settings").selectAll().where("user_id", "=", userId).executeTakeFirstOrThrow();
      return settingsView(row);
    },
  },
};
