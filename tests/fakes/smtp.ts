import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer, type SMTPServerError } from "smtp-server";

/** A mail the fake accepted (answered 250), as a mail client would read it. */
export type ReceivedMail = {
  /** The envelope's recipients (RCPT TO). */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  /** Every header, lower-cased names, as text. */
  headers: Record<string, string>;
  /** The raw message as it came over the wire. */
  raw: string;
};

type Held = { sessionId: string; mail: ReceivedMail; accept: () => void };

function received(parsed: ParsedMail, envelope: { from: string; to: string[] }, raw: Buffer): ReceivedMail {
  const headers: Record<string, string> = {};
  for (const line of parsed.headerLines) headers[line.key] = line.line.slice(line.line.indexOf(":") + 1).trim();
  return {
    to: envelope.to,
    from: envelope.from,
    subject: parsed.subject ?? "",
    text: parsed.text ?? "",
    html: typeof parsed.html === "string" ? parsed.html : "",
    messageId: parsed.messageId ?? "",
    headers,
    raw: raw.toString("utf8"),
  };
}

/**
 * A real SMTP server on loopback (smtp-server, which speaks the protocol as any server does; mail
 * parsed with mailparser, as a client reads it). It accepts every mail, or:
 * - `failNext(n, code)`: answers the next n mails' DATA with a 4xx (or 5xx) reply, so the sender has to try again;
 * - `hold()`: reads mails in full but does not answer them until `release()` (or `releaseOne()`); a mail whose connection
 *   closes meanwhile (its sender killed) was never accepted and is dropped, as a real server drops it.
 * With `http: true` it also serves what it received at `httpUrl` (`GET /messages`, `POST /fail?count=&code=`)
 * for processes that cannot reach this one's memory (the end-to-end specs).
 */
export async function startFakeSmtp({ http = false, port: wanted = 0 }: { http?: boolean; port?: number } = {}) {
  const mails: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  let failures: { count: number; code: number } = { count: 0, code: 451 };
  let holding = false;
  let held: Held[] = [];
  /** Connections gone: a mail still being read or held on one was never accepted. */
  const closed = new Set<string>();
  let refusedCount = 0;

  const notify = () => {
    for (const waiter of [...waiters]) waiter();
  };
  const arrived = (mail: ReceivedMail) => {
    mails.push(mail);
    notify();
  };

  const server = new SMTPServer({
    logger: false,
    // Plain SMTP on loopback: nodemailer upgrades when STARTTLS is offered, and a test certificate would have to be trusted.
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    allowInsecureAuth: true,
    onAuth(_auth, _session, callback) {
      callback(null, { user: "test" });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks);
        if (failures.count > 0) {
          failures.count--;
          refusedCount++;
          const error: SMTPServerError = new Error(failures.code < 500 ? "Try again later (fake)" : "Refused (fake)");
          error.responseCode = failures.code;
          callback(error);
          return notify();
        }
        const envelope = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
        };
        simpleParser(raw).then(
          (parsed) => {
            const mail = received(parsed, envelope, raw);
            const accept = () => {
              if (closed.has(session.id)) return;
              callback(null, "Queued (fake)");
              arrived(mail);
            };
            if (closed.has(session.id)) return;
            if (!holding) return accept();
            held.push({ sessionId: session.id, mail, accept });
            notify();
          },
          (error: Error) => callback(error),
        );
      });
    },
    onClose(session) {
      closed.add(session.id);
      held = held.filter((entry) => entry.sessionId !== session.id);
      notify();
    },
  });
  await new Promise<void>((resolve) => server.listen(wanted, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;

  async function waitFor<T>(check: () => T | undefined | false, timeoutMs = 30_000): Promise<T> {
    const found = check();
    if (found) return found;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(look);
        reject(new Error(`The fake SMTP server did not receive the mail waited for within ${timeoutMs} ms (it has ${mails.length})`));
      }, timeoutMs);
      const look = () => {
        const result = check();
        if (!result) return;
        clearTimeout(timer);
        waiters.delete(look);
        resolve(result);
      };
      waiters.add(look);
    });
  }

  const httpServer = http
    ? createHttpServer((req, res) => {
        const url = new URL(req.url ?? "/", "http://fake");
        if (req.method === "GET" && url.pathname === "/messages") {
          res.writeHead(200, { "content-type": "application/json" });
          return res.end(JSON.stringify(mails));
        }
        if (req.method === "POST" && url.pathname === "/fail") {
          failures = { count: Number(url.searchParams.get("count") ?? 1), code: Number(url.searchParams.get("code") ?? 451) };
          return res.writeHead(204).end();
        }
        res.writeHead(404).end();
      })
    : null;
  if (httpServer) await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));

  return {
    port,
    /** For SMTP_URL. */
    url: `smtp://127.0.0.1:${port}`,
    /** The inspection endpoint (with `http: true`). */
    httpUrl: httpServer ? `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}` : "",
    /** Every mail accepted so far, in order. */
    mails,
    /** Mails answered with a refusal so far. */
    refused: () => refusedCount,
    /** The next `count` mails get `code` (default 451, "try again later") instead of 250. */
    failNext(count: number, code = 451) {
      failures = { count, code };
    },
    /** From now on mails are read but not answered until `release`. */
    hold() {
      holding = true;
    },
    /** Mails read and not answered yet whose sender is still connected. */
    held: () => held.length,
    /** Answers the oldest mail held and keeps holding the rest (and those to come). */
    releaseOne() {
      held.shift()?.accept();
    },
    /** Answers the mails held (those whose sender is still there) and stops holding. */
    release() {
      holding = false;
      const waiting = held;
      held = [];
      for (const entry of waiting) entry.accept();
    },
    /** Resolves with the first mail (accepted, now or later) that `match` accepts. */
    waitForMail: (match: (mail: ReceivedMail) => boolean, timeoutMs?: number) => waitFor(() => mails.find(match), timeoutMs),
    /** Resolves once `count` mails have been accepted in all. */
    waitForCount: (count: number, timeoutMs?: number) => waitFor(() => mails.length >= count && mails, timeoutMs),
    /** Resolves once `check` holds (looked at whenever a mail is accepted, refused or held, and when a connection closes). */
    waitUntil: (check: () => boolean, timeoutMs?: number) => waitFor(() => check() || undefined, timeoutMs),
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (httpServer) await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

export type FakeSmtp = Awaited<ReturnType<typeof startFakeSmtp>>;
