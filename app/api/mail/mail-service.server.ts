import { randomUUID } from "node:crypto";
import type { Db, DatabaseDialect } from "../db/database.server";
import { startMailSender } from "./mail-sender.server";
import { createOutbox, type QueuedMail, type RetryPolicy } from "./outbox.server";
import { createSealer } from "./sealed.server";
import { createLinkSigner } from "./signed-links.server";
import { createSmtpTransport } from "./smtp.server";

/** How the API sends mail (SMTP_URL, MAIL_FROM, PUBLIC_URL); without it, no feature that needs mail is offered. */
export type MailConfig = {
  smtpUrl: string;
  from: string;
  /** Where people reach the app: the links in mail start with it. */
  publicUrl: string;
  /** The secret every instance shares (SESSION_SECRET): seals the outbox, signs unsubscribe links. */
  secret: string;
  /** How often each instance looks for due mail (default 5 s; a queued mail wakes it at once). */
  pollMs?: number;
  /** How long a claim on a mail holds (default 2 minutes: longer than any send may take). */
  leaseMs?: number;
  retry?: RetryPolicy;
};

/** The default lease: well over the SMTP timeouts together (smtp.server.ts). */
const LEASE_MS = 2 * 60_000;

export type MailService = {
  /** Whether mail can be sent at all (SMTP_URL is set). */
  available: boolean;
  /** Queues a mail in `executor` (the caller's transaction); false when its key was queued before. Call `nudge` after the commit. */
  enqueue(executor: Db, queued: QueuedMail): Promise<boolean>;
  /** Something was queued and committed: send it now rather than at the next look. */
  nudge(): void;
  /** An absolute link into the app (`path` with its query), as the mail's reader will open it. */
  link(path: string, query?: Record<string, string>): string;
  /** Tokens of the unsubscribe links in briefing mails (a briefing's id, signed). */
  unsubscribeTokens: { sign(briefingId: string): string; verify(token: string): string | null };
  /** Sends what is due now and settles when that is done (tests wait on it; nothing else needs to). */
  flush(): Promise<void>;
  /** Stops sending (the mail under way is finished and recorded). */
  stop(): Promise<void>;
};

const unavailable = (): never => {
  throw new Error("No mail is sent here (SMTP_URL is not set): check `mail.available` first");
};

export const NO_MAIL: MailService = {
  available: false,
  enqueue: unavailable,
  nudge: () => {},
  link: unavailable,
  unsubscribeTokens: { sign: unavailable, verify: () => null },
  flush: async () => {},
  stop: async () => {},
};

/** The outbox and this instance's sender on it (decision 025). */
export function createMailService(config: MailConfig | undefined, db: Db, dialect: DatabaseDialect): MailService {
  if (!config) return NO_MAIL;
  const outbox = createOutbox({
    db,
    dialect,
    sealer: createSealer(config.secret),
    instanceId: randomUUID(),
    leaseMs: config.leaseMs ?? LEASE_MS,
    retry: config.retry,
  });
  const sender = startMailSender({
    outbox,
    smtp: createSmtpTransport(config.smtpUrl, config.from),
    messageDomain: config.from.replace(/^.*@/, "").replace(/>.*$/, ""),
    pollMs: config.pollMs,
  });
  const signer = createLinkSigner(config.secret, "unsubscribe");
  const base = config.publicUrl.replace(/\/+$/, "");
  return {
    available: true,
    enqueue: (executor, queued) => outbox.enqueue(executor, queued),
    nudge: sender.nudge,
    link(path, query) {
      // Relative to the base, so a base with a path (https://example.com/weather) keeps it.
      const url = new URL(path.replace(/^\/+/, ""), `${base}/`);
      for (const [name, value] of Object.entries(query ?? {})) url.searchParams.set(name, value);
      return url.toString();
    },
    unsubscribeTokens: signer,
    flush: sender.flush,
    stop: sender.stop,
  };
}
