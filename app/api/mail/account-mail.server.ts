import { layOutMail } from "./mail-layout.server";
import { mailLocale, mailTexts } from "./mail-texts.server";
import type { MailService } from "./mail-service.server";
import type { OutgoingMail } from "./smtp.server";

type Mail = Omit<OutgoingMail, "messageId">;

/** The reset link's mail, in the account's language: the link, how long it works, what to do if it was not you. */
export function passwordResetMail(mail: MailService, { to, language, token }: { to: string; language: string; token: string }): Mail {
  const t = mailTexts(language);
  const content = layOutMail({
    locale: mailLocale(language),
    subject: t("passwordReset.subject"),
    heading: t("passwordReset.subject"),
    paragraphs: [t("passwordReset.intro", { email: to })],
    action: { label: t("passwordReset.action"), url: mail.link("reset-password", { token }) },
    notes: [t("passwordReset.expiry"), t("passwordReset.ignore")],
    footer: t("footer", { url: mail.link("") }),
  });
  return { to, ...content };
}

/** The confirmation link's mail, to the new address, in the account's language. */
export function emailChangeMail(mail: MailService, { to, language, token }: { to: string; language: string; token: string }): Mail {
  const t = mailTexts(language);
  const content = layOutMail({
    locale: mailLocale(language),
    subject: t("emailChange.subject"),
    heading: t("emailChange.subject"),
    paragraphs: [t("emailChange.intro", { email: to })],
    action: { label: t("emailChange.action"), url: mail.link("confirm-email", { token }) },
    notes: [t("emailChange.expiry"), t("emailChange.ignore")],
    footer: t("footer", { url: mail.link("") }),
  });
  return { to, ...content };
}
