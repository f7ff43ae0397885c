import { describe, expect, it } from "vitest";
import { readLocaleCookie, serializeLocaleCookie } from "~/server/i18n/locale-cookie.server";

describe("serializeLocaleCookie", () => {
  it("writes the plain locale for a year, site-wide", () => {
    expect(serializeLocaleCookie("de-DE")).toBe("i18n_redirected=de-DE; Max-Age=31536000; Path=/; SameSite=Lax");
  });
});

describe("readLocaleCookie", () => {
  it("finds the locale among other cookies", () => {
    expect(readLocaleCookie("theme=dark; i18n_redirected=fr-FR; other=1")).toBe("fr-FR");
  });

  it("reads what serializeLocaleCookie wrote", () => {
    expect(readLocaleCookie(serializeLocaleCookie("es-ES").split(";")[0]!)).toBe("es-ES");
  });

  it.each(["i18n_redirected=xx-YY", "i18n_redirected=de", "i18n_redirected=", "theme=dark"])("is null for %j", (header) => {
    expect(readLocaleCookie(header)).toBeNull();
  });

  it("is null without a Cookie header", () => {
    expect(readLocaleCookie(null)).toBeNull();
    expect(readLocaleCookie("")).toBeNull();
  });
});
