import type { Db } from "../db/database.server";
import type { BriefingTable, MessageTable } from "../db/tables";
import { layOutMail } from "./mail-layout.server";
import type { MailService } from "./mail-service.server";
import { mailLocale, mailTexts } from "./mail-texts.server";

/** A briefing mailed later than this (the SMTP server was away) is given up: yesterday's weather helps nobody. */
export const BRIEFING_MAIL_VALID_MS = 12 * 3_600_000;

/**
 * Queues a briefing's message as mail to its owner, in `trx` (the transaction that writes the
 * message, so the mail exists exactly when the message does: a pass run twice, or by two
 * instances, queues it once, as the message's dedupe key is the mail's). Formatted as the inbox
 * formats it for its reader; an unsubscribe link (and RFC 8058's List-Unsubscribe headers) that
 * turns the briefing's email off without a log-in.
 */
export async function queueBriefingMail(
  trx: Db,
  mail: MailService,
  {
    message,
    briefing,
    language,
    text,
  }: { message: MessageTable; briefing: BriefingTable; language: string; text: { title: string; body: string } },
): Promise<boolean> {
  const owner = await trx.selectFrom("users").select("email").where("id", "=", briefing.user_id).executeTakeFirst();
  if (!owner) return false;
  const t = mailTexts(language);
  const unsubscribe = mail.link("unsubscribe", { token: mail.unsubscribeTokens.sign(briefing.id) });
  const content = layOutMail({
    locale: mailLocale(language),
    subject: text.title,
    heading: text.title,
    paragraphs: [text.body],
    notes: [t("briefing.why", { name: briefing.name })],
    links: [
      { label: t("briefing.open"), url: mail.link("") },
      { label: t("briefing.unsubscribe"), url: unsubscribe },
    ],
    footer: t("footer", { url: mail.link("") }),
  });
  return mail.enqueue(trx, {
    kind: "BRIEFING",
    dedupeKey: `mail:${message.dedupe_key}`,
    userId: briefing.user_id,
    validForMs: BRIEFING_MAIL_VALID_MS,
    mail: {
      to: owner.email,
      ...content,
      // RFC 8058: the link takes a POST with List-Unsubscribe=One-Click; mail clients show an unsubscribe button.
      headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
    },
  });
}
