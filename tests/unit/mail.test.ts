import { describe, expect, it } from "vitest";
import { layOutMail } from "~/api/mail/mail-layout.server";
import { mailTexts } from "~/api/mail/mail-texts.server";
import { createSealer } from "~/api/mail/sealed.server";
import { createLinkSigner } from "~/api/mail/signed-links.server";
import { isTemporaryFailure } from "~/api/mail/smtp.server";
import { EnvError, parseEnv, publicUrl } from "~/server/env.server";

const SECRET = "a-secret-of-at-least-thirty-two-characters";

describe("mail configuration", () => {
  it("takes SMTP_URL with MAIL_FROM, and refuses SMTP_URL alone without showing its password", () => {
    const env = parseEnv({ SMTP_URL: "smtps://bot:pa55@mail.example.com:465", MAIL_FROM: "Weatherbot <bot@example.com>" });
    expect(env.SMTP_URL).toBe("smtps://bot:pa55@mail.example.com:465");
    expect(env.MAIL_FROM).toBe("Weatherbot <bot@example.com>");
    expect(parseEnv({}).SMTP_URL).toBeUndefined();

    const alone = (() => {
      try {
        parseEnv({ SMTP_URL: "smtp://bot:pa55@mail.example.com" });
      } catch (error) {
        return error as EnvError;
      }
    })();
    expect(alone).toBeInstanceOf(EnvError);
    expect(alone!.message).toContain("MAIL_FROM: required with SMTP_URL");

    const bad = (() => {
      try {
        parseEnv({ SMTP_URL: "http://bot:pa55@mail.example.com", MAIL_FROM: "not an address" });
      } catch (error) {
        return error as EnvError;
      }
    })();
    expect(bad!.message).toContain("SMTP_URL: expected smtp://");
    expect(bad!.message).toContain("MAIL_FROM: expected an address");
    expect(bad!.message).not.toContain("pa55");
  });

  it("makes links from PUBLIC_URL, or from where the server listens", () => {
    expect(publicUrl(parseEnv({ PUBLIC_URL: "https://weather.example.com/" }))).toBe("https://weather.example.com");
    expect(publicUrl(parseEnv({ PORT: "8080" }))).toBe("http://127.0.0.1:8080");
    expect(publicUrl(parseEnv({ HOST: "0.0.0.0" }))).toBe("http://localhost:3000");
  });
});

describe("the outbox's seal", () => {
  it("opens what it sealed, and nothing sealed with another secret or changed since", () => {
    const sealer = createSealer(SECRET);
    const sealed = sealer.seal({ to: "a@example.com", subject: "Reset" });
    expect(sealed).not.toContain("a@example.com");
    expect(sealer.open(sealed)).toEqual({ to: "a@example.com", subject: "Reset" });
    expect(() => createSealer(`${SECRET}!`).open(sealed)).toThrow();
    const [version, iv, body, tag] = sealed.split(".");
    // The last character but one (the last may hold only padding bits), changed to another character whatever it was.
    const changed = body!.at(-2) === "A" ? "B" : "A";
    const flipped = `${version}.${iv}.${body!.slice(0, -2)}${changed}${body!.slice(-1)}.${tag}`;
    expect(() => sealer.open(flipped)).toThrow();
  });
});

describe("signed links", () => {
  it("verify the id they were made for, and nothing else", () => {
    const signer = createLinkSigner(SECRET, "unsubscribe");
    const token = signer.sign("briefing-1");
    expect(signer.verify(token)).toBe("briefing-1");
    expect(signer.verify(token.replace("briefing-1", "briefing-2"))).toBeNull();
    expect(signer.verify("briefing-1")).toBeNull();
    expect(signer.verify(`${token}x`)).toBeNull();
    expect(createLinkSigner(SECRET, "another purpose").verify(token)).toBeNull();
    expect(createLinkSigner(`${SECRET}!`, "unsubscribe").verify(token)).toBeNull();
  });
});

describe("SMTP failures", () => {
  it("are temporary for 4xx replies and lost connections, permanent for 5xx replies and bad messages", () => {
    const error = (fields: object) => Object.assign(new Error("x"), fields);
    expect(isTemporaryFailure(error({ responseCode: 451, permanent: false }))).toBe(true);
    expect(isTemporaryFailure(error({ responseCode: 421, permanent: false }))).toBe(true);
    expect(isTemporaryFailure(error({ code: "ECONNECTION" }))).toBe(true);
    expect(isTemporaryFailure(error({ code: "ETIMEDOUT" }))).toBe(true);
    expect(isTemporaryFailure(error({ code: "EAUTH", responseCode: 535, permanent: true }))).toBe(false);
    expect(isTemporaryFailure(error({ responseCode: 550, permanent: true }))).toBe(false);
    expect(isTemporaryFailure(error({ code: "EENVELOPE" }))).toBe(false);
  });
});

describe("a mail's layout", () => {
  it("writes the same words as plain text and as escaped HTML, the link under its button too", () => {
    const mail = layOutMail({
      locale: "de-DE",
      subject: "Betreff",
      heading: "<Überschrift>",
      paragraphs: ["Zeile 1\nZeile <2>"],
      action: { label: "Los", url: "https://example.com/x?a=1&b=2" },
      notes: ["Klein"],
      links: [{ label: "Abmelden", url: "https://example.com/u" }],
      footer: "Fuß",
    });
    expect(mail.text).toContain(
      "<Überschrift>\n\nZeile 1\nZeile <2>\n\nLos:\nhttps://example.com/x?a=1&b=2\n\nKlein\n\nAbmelden: https://example.com/u",
    );
    expect(mail.html).toContain('<html lang="de-DE">');
    expect(mail.html).toContain("&lt;Überschrift&gt;");
    expect(mail.html).toContain("Zeile 1<br>Zeile &lt;2&gt;");
    expect(mail.html).toContain('href="https://example.com/x?a=1&amp;b=2"');
    expect(mail.html).not.toContain("<2>");
  });

  it("has its words in the reader's language", () => {
    expect(mailTexts("DE_DE")("passwordReset.subject")).toBe("Dein Weatherbot-Passwort zurücksetzen");
    expect(mailTexts("FR_FR")("emailChange.intro", { email: "a@b.fr" })).toContain("a@b.fr");
    expect(mailTexts("XX")("passwordReset.subject")).toBe("Reset your Weatherbot password");
  });
});
