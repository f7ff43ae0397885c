import { sql } from "kysely";
import { deleteAccountRows } from "../auth/account-deletion.server";
import { hashPassword, verifyPassword } from "../auth/password.server";
import { revokeSessionsOf } from "../auth/sessions.server";
import { describeClient, type ClientDescription } from "../auth/user-agent.server";
import { requireSession, type ApiContext } from "../context.server";
import { apiError, notFound } from "../errors.server";
import { inputIssue, parseInput } from "../input.server";
import { cacheable, cacheableFields } from "../result-cache.server";
import type { AccountSessionMapper, UserMapper } from "./mappers";
import type { AccountSessionResolvers, PushEndpointResolvers, Resolvers } from "./resolvers.generated";
import { changePasswordInput, deleteAccountInput } from "../../shared/inputs/account";

/** The most sessions the list gives (the most recently used): more than any one person keeps, fewer than a script can make. */
export const MAX_SESSIONS_LISTED = 100;
/** The most push endpoints given: a browser each. */
export const MAX_PUSH_ENDPOINTS_LISTED = 100;

/** Longer than any password the rules accept: not worth hashing. */
const MAX_CHECKED_PASSWORD = 1024;

/** The signed-in session, when `user` is its user: an account's sessions and devices are its own business only. */
function ownSession(user: UserMapper, context: ApiContext) {
  const session = requireSession(context);
  if (session.userId !== user.id) throw apiError("FORBIDDEN", "Only your own account's sessions and devices can be read");
  return session;
}

/**
 * Whether `password` is the signed-in account's, checked as a log-in is: counted against log-in's limits for the
 * account from this address before it is hashed, in a hash slot. Wrong: BAD_USER_INPUT on `field`.
 */
async function checkPassword(context: ApiContext, field: string, password: string): Promise<void> {
  const { userId, user } = requireSession(context);
  const attempt = await context.loginGuard.begin(user.email, context.clientIp);
  let right: boolean;
  try {
    const row = await context.db.selectFrom("users").select("password_hash").where("id", "=", userId).executeTakeFirst();
    right =
      !!row && password.length <= MAX_CHECKED_PASSWORD && (await context.hashSlots.run(() => verifyPassword(password, row.password_hash)));
  } catch (error) {
    await attempt.abandoned();
    throw error;
  }
  if (!right) throw inputIssue(field, "PASSWORD_WRONG");
  await attempt.succeeded();
}

/** Ends, in this process, the listeners of sessions whose end has committed (other instances' followers see it). */
function endListeners(context: ApiContext, sessionIds: readonly string[]) {
  for (const id of sessionIds) context.sessionEnds.end(id);
}

// One row's description is asked for by three fields.
const descriptions = new WeakMap<AccountSessionMapper, ClientDescription>();
function description(session: AccountSessionMapper): ClientDescription {
  let described = descriptions.get(session);
  if (!described) descriptions.set(session, (described = describeClient(session.user_agent)));
  return described;
}

export const accountSecurityResolvers: Resolvers = {
  User: {
    // Not cacheable: which one is `current` differs between the account's sessions, and answers are cached per user.
    async sessions(user, _, context) {
      ownSession(user, context);
      const now = context.now().toISOString();
      return context.db
        .selectFrom("sessions")
        .leftJoin("session_activity", "session_activity.session_id", "sessions.id")
        .select(["sessions.id", "sessions.created_at", "sessions.expires_at", "sessions.user_agent", "session_activity.last_seen_at"])
        .where("sessions.user_id", "=", user.id)
        .where("sessions.revoked_at", "is", null)
        .where("sessions.expires_at", ">", now)
        .orderBy(sql`coalesce(session_activity.last_seen_at, sessions.created_at)`, "desc")
        .orderBy("sessions.id")
        .limit(MAX_SESSIONS_LISTED)
        .execute();
    },
    pushEndpoints: cacheable(async (user, _, context) => {
      ownSession(user, context);
      return context.db
        .selectFrom("push_subscriptions")
        .select(["endpoint", "created_at"])
        .where("user_id", "=", user.id)
        .orderBy("created_at")
        .orderBy("id")
        .limit(MAX_PUSH_ENDPOINTS_LISTED)
        .execute();
    }),
  },
  AccountSession: {
    current: (session, _, context) => session.id === context.session?.id,
    ...cacheableFields<AccountSessionResolvers>({
      createdAt: (session) => session.created_at,
      lastSeenAt: (session) => session.last_seen_at ?? session.created_at,
      expiresAt: (session) => session.expires_at,
      browser: (session) => description(session).browser,
      os: (session) => description(session).os,
      deviceType: (session) => description(session).deviceType,
    }),
  },
  PushEndpoint: cacheableFields<PushEndpointResolvers>({ createdAt: (subscription) => subscription.created_at }),
  Mutation: {
    async changePassword(_, args, context) {
      const session = requireSession(context);
      const input = parseInput(changePasswordInput, { ...args, email: session.user.email });
      await checkPassword(context, "currentPassword", input.currentPassword);
      const hash = await context.hashSlots.run(() => hashPassword(input.newPassword, context.passwordHashCost));
      // The new password and the other sessions' end together: no session opened with the old one outlives it.
      const ended = await context.db.transaction().execute(async (trx) => {
        await trx.updateTable("users").set({ password_hash: hash }).where("id", "=", session.userId).execute();
        return revokeSessionsOf(trx, session.userId, context.now(), { except: session.id });
      });
      endListeners(context, ended);
      return ended.length;
    },

    async endSession(_, { id }, context) {
      const session = requireSession(context);
      const ended = await context.db
        .updateTable("sessions")
        .set({ revoked_at: context.now().toISOString() })
        .where("id", "=", id)
        .where("user_id", "=", session.userId)
        .where("revoked_at", "is", null)
        .returning("id")
        .executeTakeFirst();
      // Another account's session is as unknown as one that never was.
      if (!ended) throw notFound("Session");
      endListeners(context, [id]);
      return true;
    },

    async endOtherSessions(_, __, context) {
      const session = requireSession(context);
      const ended = await revokeSessionsOf(context.db, session.userId, context.now(), { except: session.id });
      endListeners(context, ended);
      return ended.length;
    },

    async deleteAccount(_, args, context) {
      const session = requireSession(context);
      const { password } = parseInput(deleteAccountInput, args);
      await checkPassword(context, "password", password);
      const ended = await deleteAccountRows(context.db, session.userId, session.user.email);
      endListeners(context, ended);
      // Nothing of it stays in this process's memory; other instances drop theirs when they see it gone.
      context.userCaches.forgetUser(session.userId);
      return true;
    },
  },
};
