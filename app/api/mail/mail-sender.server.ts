import { createOutageLog } from "../db/outage-log.server";
import { apiLog } from "../log.server";
import type { ClaimedMail, Outbox } from "./outbox.server";
import type { SmtpTransport } from "./smtp.server";

/** How often an instance looks for mail that is due (a queued mail also wakes it at once: see `nudge`). */
export const MAIL_POLL_MS = 5_000;
/** Sent and given-up rows are deleted after a week, looked for about hourly. */
const KEEP_DONE_MS = 7 * 24 * 3_600_000;
const PRUNE_EVERY_MS = 3_600_000;
/** How long a shutdown waits for a send under way before it closes the connection under it. */
const STOP_WAIT_MS = 3_000;

/** `promise`, or nothing once `ms` have passed. */
function within(promise: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * Each instance's sender: claims due mail from the outbox, sends it over SMTP and records the
 * outcome, in the background (a request or an engine tick only queues). Looks every `pollMs` and
 * whenever `nudge` says something was queued; rows another instance took are not seen here.
 */
export function startMailSender({
  outbox,
  smtp,
  messageDomain,
  pollMs = MAIL_POLL_MS,
}: {
  outbox: Outbox;
  smtp: SmtpTransport;
  /** The domain of the Message-IDs (MAIL_FROM's). */
  messageDomain: string;
  pollMs?: number;
}) {
  const log = createOutageLog("[mail]", "could not read the outbox");
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let lastPrune = 0;

  async function sendOne({ row, mail }: ClaimedMail): Promise<void> {
    if (!mail) {
      await outbox.failed(row, "the sealed mail does not open with this secret", false);
      apiLog.warn({ mail: row.id, kind: row.kind }, "[mail] given up: it was sealed with another secret (SESSION_SECRET changed?)");
      return;
    }
    if (Date.parse(row.expires_at) < Date.now()) {
      await outbox.failed(row, "expired before it could be sent", false);
      apiLog.warn({ mail: row.id, kind: row.kind }, "[mail] given up: expired before it could be sent");
      return;
    }
    const outcome = await smtp.send({ ...mail, messageId: `<${row.id}@${messageDomain}>` });
    if (outcome.sent) {
      if (!(await outbox.sent(row.id))) apiLog.warn({ mail: row.id }, "[mail] sent after its lease had passed to another instance");
      return;
    }
    const next = await outbox.failed(row, outcome.error, outcome.temporary);
    apiLog.warn({ mail: row.id, kind: row.kind, attempts: row.attempts, next }, `[mail] not sent: ${outcome.error}`);
    // Looked for again when it is due, not at the next poll (which may be later).
    if (next !== "given up" && next.retryInMs < pollMs) setTimeout(() => void look(), next.retryInMs).unref();
  }

  async function drain(): Promise<void> {
    try {
      for (;;) {
        // One mail per claim: a lease taken for several would run out while they wait their turn,
        // and another instance would send them too.
        const claimed = await outbox.claimOne();
        log.succeeded();
        if (!claimed) break;
        await sendOne(claimed);
        if (stopped) break;
      }
      if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
        lastPrune = Date.now();
        await outbox.prune(KEEP_DONE_MS);
      }
    } catch (error) {
      log.failed(error);
    }
  }

  function look(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) {
      // Queued after this look read the outbox, perhaps: look once more when it ends.
      again = true;
      return running;
    }
    return (running = drain().finally(() => {
      running = null;
      if (again && !stopped) {
        again = false;
        void look();
      }
    }));
  }

  /** Settles once no look is under way (nor one asked for meanwhile). */
  async function settled(): Promise<void> {
    while (running) await running;
  }

  const timer = setInterval(() => void look(), pollMs);
  timer.unref();
  void look();

  return {
    /** Something was queued (and committed): look now rather than at the next poll. */
    nudge: () => void look(),
    /** Looks now, and settles once that look (and any it asked for) has sent what was due. */
    async flush(): Promise<void> {
      await look();
      await settled();
    },
    /**
     * Stops looking; the mail being sent is finished and recorded, the rest waits for another instance or a restart.
     * A send still going after STOP_WAIT_MS (a slow SMTP server) is cut off by closing the connections: it fails as a
     * lost connection, is recorded for a later attempt, and the shutdown stays within its 10 s.
     */
    async stop(): Promise<void> {
      stopped = true;
      clearInterval(timer);
      await within(settled(), STOP_WAIT_MS);
      smtp.close(true);
      await settled();
    },
  };
}

export type MailSender = ReturnType<typeof startMailSender>;
