import { expect } from "@playwright/test";
import type { ReceivedMail } from "../../tests/fakes/smtp";

/** The mail the run's SMTP fake has accepted (e2e/global-setup.ts starts it; its list is served at E2E_FAKE_SMTP_URL). */
async function receivedMail(): Promise<ReceivedMail[]> {
  const url = process.env.E2E_FAKE_SMTP_URL;
  if (!url) throw new Error("E2E_FAKE_SMTP_URL is not set: the global setup did not start the SMTP fake.");
  return (await (await fetch(`${url}/messages`)).json()) as ReceivedMail[];
}

/** Waits for the mails to `to` to number `count` (default: one), and returns them. */
export async function mailsTo(to: string, count = 1): Promise<ReceivedMail[]> {
  let mails: ReceivedMail[] = [];
  await expect
    .poll(
      async () => {
        mails = (await receivedMail()).filter((mail) => mail.to.includes(to));
        return mails.length;
      },
      { message: `mail to ${to}`, timeout: 20_000 },
    )
    .toBeGreaterThanOrEqual(count);
  return mails;
}

/** Every mail to `to` accepted so far (none waited for). */
export async function mailsSoFar(to: string): Promise<ReceivedMail[]> {
  return (await receivedMail()).filter((mail) => mail.to.includes(to));
}

/** The link to `path` in a mail's text (the same as its button's). */
export function linkIn(mail: ReceivedMail, path: string): string {
  const match = new RegExp(`https?://[^\\s]+/${path}\\?token=[A-Za-z0-9_.-]+`).exec(mail.text);
  if (!match) throw new Error(`No ${path} link in the mail:\n${mail.text}`);
  return match[0];
}
