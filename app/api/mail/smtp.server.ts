import { createTransport } from "nodemailer";

/** One message as it goes out: multipart (plain text and HTML), From the configured address. */
export type OutgoingMail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (List-Unsubscribe, …). */
  headers?: Record<string, string>;
  /** The same on every attempt, so a receiver can tell a resent copy (see decision 025). */
  messageId: string;
};

/** How a send went: sent, or refused for now (4xx, no connection: try again later) or for good (5xx). */
export type SendOutcome = { sent: true } | { sent: false; temporary: boolean; error: string };

/** Errors nodemailer raises before talking to the server, about the message itself: retrying cannot help. */
const LOCAL_PERMANENT = new Set(["EENVELOPE", "EMESSAGE", "ECONFIG", "EMAXRECIPIENTS"]);

type NodemailerError = Error & { code?: string; responseCode?: number; permanent?: boolean; response?: string };

/** Whether to try the message again later: nodemailer marks SMTP replies that refuse it for good (5xx but 503). */
export function isTemporaryFailure(error: NodemailerError): boolean {
  if (error.permanent === true) return false;
  if (error.responseCode === undefined && error.code && LOCAL_PERMANENT.has(error.code)) return false;
  return true;
}

export type SmtpTimeouts = { connectionMs: number; greetingMs: number; socketMs: number };

/** Bounded, so a send always ends well within the outbox's lease on its row. */
export const SMTP_TIMEOUTS: SmtpTimeouts = { connectionMs: 10_000, greetingMs: 10_000, socketMs: 30_000 };

/**
 * The SMTP server (SMTP_URL) through nodemailer: a small pool of connections kept open while mail
 * flows. smtps:// is TLS from the start; smtp:// upgrades with STARTTLS when the server offers it.
 */
export function createSmtpTransport(smtpUrl: string, from: string, timeouts: SmtpTimeouts = SMTP_TIMEOUTS) {
  const transport = createTransport(
    {
      url: smtpUrl,
      pool: true,
      maxConnections: 2,
      connectionTimeout: timeouts.connectionMs,
      greetingTimeout: timeouts.greetingMs,
      socketTimeout: timeouts.socketMs,
    },
    { from },
  );
  return {
    async send(mail: OutgoingMail): Promise<SendOutcome> {
      try {
        await transport.sendMail({
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          headers: mail.headers,
          messageId: mail.messageId,
        });
        return { sent: true };
      } catch (caught) {
        const error = caught as NodemailerError;
        return { sent: false, temporary: isTemporaryFailure(error), error: (error.response ?? error.message).slice(0, 500) };
      }
    },
    /** Closes the connections; `force` also those delivering a mail (it fails as a lost connection: tried again later). */
    close: (force = false) => transport.close({ force }),
  };
}

export type SmtpTransport = ReturnType<typeof createSmtpTransport>;
