import { checkAccountToken, consumeAccountToken, issueAccountToken, TOKEN_LIFETIME_MS } from "../auth/account-tokens.server";
import { limitEmailChangeRequest, limitResetRequest } from "../auth/mail-request-guard.server";
import { hashPassword } from "../auth/password.server";
import { requireSession, type ApiContext } from "../context.server";
import { isUniqueViolation } from "../db/unique-violation.server";
import { deliveryText, emailsBriefing, parseDelivery } from "../bot/briefing-delivery";
import { apiError, notFound } from "../errors.server";
import { inputIssue, parseInput } from "../input.server";
import { emailChangeMail, passwordResetMail } from "../mail/account-mail.server";
import { cacheable } from "../result-cache.server";
import type { Resolvers } from "./resolvers.generated";
import { accountTokenInput, emailChangeInput, passwordResetInput, passwordResetRequestInput } from "../../shared/inputs/account-mail";

/** What needs mail, refused plainly where the server sends none (no SMTP_URL). */
function requireMail(context: ApiContext) {
  if (!context.mail.available) {
    throw apiError("FORBIDDEN", "This server sends no mail (SMTP is not configured)", { reason: "MAIL_UNAVAILABLE" });
  }
  return context.mail;
}

async function languageOf(context: ApiContext, userId: string): Promise<string> {
  const row = await context.db.selectFrom("settings").select("language").where("user_id", "=", userId).executeTakeFirst();
  return row?.language ?? "EN_US";
}

export const mailResolvers: Resolvers = {
  Query: {
    // The server's configuration: the same for everyone, for as long as the process runs.
    mailAvailable: cacheable((_, __, context) => context.mail.available),
    async briefingEmail(_, args, context) {
      const id = context.mail.unsubscribeTokens.verify(args.token);
      if (!id) return null;
      const briefing = await context.db.selectFrom("briefings").select(["id", "name", "delivery"]).where("id", "=", id).executeTakeFirst();
      return briefing ? { id: briefing.id, briefingName: briefing.name, emailed: emailsBriefing(briefing) } : null;
    },
  },
  Mutation: {
    async unsubscribeBriefingEmail(_, args, context) {
      // The link's signature is the proof: no log-in, as a mail client's one-click POST has none (RFC 8058).
      const id = context.mail.unsubscribeTokens.verify(args.token);
      if (!id) throw inputIssue("token", "TOKEN_INVALID");
      return context.db.transaction().execute(async (trx) => {
        const briefing = await trx.selectFrom("briefings").select(["id", "name", "delivery"]).where("id", "=", id).executeTakeFirst();
        if (!briefing) throw notFound("Briefing");
        const delivery = parseDelivery(briefing.delivery).filter((channel) => channel !== "EMAIL");
        await trx
          .updateTable("briefings")
          .set({ delivery: deliveryText(delivery) })
          .where("id", "=", id)
          .execute();
        return { id, briefingName: briefing.name, emailed: false };
      });
    },

    async requestPasswordReset(_, args, context) {
      const mail = requireMail(context);
      const { email } = parseInput(passwordResetRequestInput, args);
      // Counted whether or not the address has an account: the limits must not tell either.
      await limitResetRequest(context, email);
      const user = await context.db.selectFrom("users").select(["id", "email"]).where("email", "=", email).executeTakeFirst();
      if (!user) return true;
      const language = await languageOf(context, user.id);
      const now = context.now();
      await context.db.transaction().execute(async (trx) => {
        const { token, tokenHash } = await issueAccountToken(trx, { purpose: "PASSWORD_RESET", userId: user.id, now });
        await mail.enqueue(trx, {
          kind: "PASSWORD_RESET",
          dedupeKey: `reset:${tokenHash}`,
          userId: user.id,
          // Not worth sending once its link no longer works.
          validForMs: TOKEN_LIFETIME_MS.PASSWORD_RESET,
          mail: passwordResetMail(mail, { to: user.email, language, token }),
        });
      });
      mail.nudge();
      return true;
    },

    async resetPassword(_, args, context) {
      // The link first: whether it works decides everything, and the password's rules need the account's address.
      parseInput(accountTokenInput, args);
      const now = context.now();
      const found = await checkAccountToken(context.db, "PASSWORD_RESET", args.token, now);
      if ("refused" in found) throw inputIssue("token", found.refused);
      const user = await context.db.selectFrom("users").select("email").where("id", "=", found.row.user_id).executeTakeFirstOrThrow();
      parseInput(passwordResetInput, { ...args, email: user.email });

      const passwordHash = await context.hashSlots.run(() => hashPassword(args.password, context.passwordHashCost));
      const ended = await context.db.transaction().execute(async (trx) => {
        // Used up here, once: a second use at the same moment (any instance) is refused and changes nothing.
        const used = await consumeAccountToken(trx, "PASSWORD_RESET", args.token, now);
        if ("refused" in used) throw inputIssue("token", used.refused);
        await trx.updateTable("users").set({ password_hash: passwordHash }).where("id", "=", used.row.user_id).execute();
        // Every session ends, as a log-out ends one (account.server.ts's logOut): whoever had the old password is out.
        return trx
          .updateTable("sessions")
          .set({ revoked_at: now.toISOString() })
          .where("user_id", "=", used.row.user_id)
          .where("revoked_at", "is", null)
          .returning("id")
          .execute();
      });
      // Their subscriptions end and sockets close now here; other instances' session followers see the revocation.
      for (const { id } of ended) context.sessionEnds.end(id);
      return true;
    },

    async requestEmailChange(_, args, context) {
      const session = requireSession(context);
      const mail = requireMail(context);
      const { email } = parseInput(emailChangeInput, args);
      if (email === session.user.email) throw inputIssue("email", "EMAIL_UNCHANGED");
      await limitEmailChangeRequest(context, session.userId);
      const taken = await context.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst();
      if (taken) throw inputIssue("email", "EMAIL_TAKEN");
      const language = await languageOf(context, session.userId);
      const now = context.now();
      await context.db.transaction().execute(async (trx) => {
        const { token, tokenHash } = await issueAccountToken(trx, {
          purpose: "EMAIL_CHANGE",
          userId: session.userId,
          email,
          now,
        });
        await mail.enqueue(trx, {
          kind: "EMAIL_CHANGE",
          dedupeKey: `email-change:${tokenHash}`,
          userId: session.userId,
          validForMs: TOKEN_LIFETIME_MS.EMAIL_CHANGE,
          mail: emailChangeMail(mail, { to: email, language, token }),
        });
      });
      mail.nudge();
      return true;
    },

    async confirmEmailChange(_, args, context) {
      const { token } = parseInput(accountTokenInput, args);
      const now = context.now();
      try {
        return await context.db.transaction().execute(async (trx) => {
          const used = await consumeAccountToken(trx, "EMAIL_CHANGE", token, now);
          if ("refused" in used) throw inputIssue("token", used.refused);
          const email = used.row.email!;
          // Taken since it was asked for (a sign-up, another change): the unique index refuses it below too.
          const taken = await trx
            .selectFrom("users")
            .select("id")
            .where("email", "=", email)
            .where("id", "!=", used.row.user_id)
            .executeTakeFirst();
          if (taken) throw inputIssue("email", "EMAIL_TAKEN");
          await trx.updateTable("users").set({ email }).where("id", "=", used.row.user_id).execute();
          return email;
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw inputIssue("email", "EMAIL_TAKEN");
        throw error;
      }
    },
  },
};
