import type { MailConfig } from "~/api/mail/mail-service.server";

/** The secret a test's instances share (SESSION_SECRET's part): seals the outbox and signs unsubscribe links. */
export const TEST_MAIL_SECRET = "test-mail-secret-of-at-least-32-characters";

/**
 * Mail settings for a test: From a fixed address, links to a fixed base, the shared test secret,
 * and quick retries (200 ms, doubling) so a test waits for a retry rather than for half a minute.
 */
export function testMailConfig(mail: Partial<MailConfig> & { smtpUrl: string }): MailConfig {
  return {
    from: "Weatherbot <bot@weatherbot.test>",
    publicUrl: "http://weatherbot.test",
    secret: TEST_MAIL_SECRET,
    retry: { baseMs: 200, maxMs: 1_000, attempts: 5 },
    ...mail,
  };
}

/**
 * The mail settings of an API in a child process (engine-process.ts, instance-process.ts): TEST_SMTP_URL names the
 * test's SMTP server (unset: no mail), TEST_MAIL_LEASE_MS how long a claim on a mail holds (a killed sender's mail is
 * taken over after it).
 */
export function childMailConfig(env: NodeJS.ProcessEnv = process.env): MailConfig | undefined {
  if (!env.TEST_SMTP_URL) return undefined;
  return testMailConfig({
    smtpUrl: env.TEST_SMTP_URL,
    pollMs: 200,
    ...(env.TEST_MAIL_LEASE_MS ? { leaseMs: Number(env.TEST_MAIL_LEASE_MS) } : {}),
  });
}
