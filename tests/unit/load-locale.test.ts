import { describe, expect, it, vi } from "vitest";
import type { Locale } from "~/lib/i18n/config";
import { createLocaleBackend, loadLocale, type LocaleImporter } from "~/lib/i18n/load-locale";
import type { LocaleResources } from "~/lib/i18n/resources";

const resourcesFor = (locale: Locale): LocaleResources => ({ common: { locale } });

function importer(failing: Locale[] = []) {
  return vi.fn<LocaleImporter>(async (locale) => {
    if (failing.includes(locale)) throw new Error(`chunk for ${locale} failed`);
    return resourcesFor(locale);
  });
}

describe("loadLocale", () => {
  it("loads the requested locale", async () => {
    const load = importer();
    await expect(loadLocale("fr-FR", load)).resolves.toEqual({ locale: "fr-FR", resources: resourcesFor("fr-FR") });
    expect(load).toHaveBeenCalledExactlyOnceWith("fr-FR");
  });

  it("logs a failed locale and falls back to en-US", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const load = importer(["de-DE"]);
    await expect(loadLocale("de-DE", load)).resolves.toEqual({ locale: "en-US", resources: resourcesFor("en-US") });
    expect(error).toHaveBeenCalledOnce();
    expect(error.mock.calls[0]?.[0]).toBe("Failed locale loading");
    expect(load.mock.calls).toEqual([["de-DE"], ["en-US"]]);
  });

  it("loads en-US for an unsupported locale without an error", async () => {
    const load = importer();
    await expect(loadLocale("xx-YY", load)).resolves.toEqual({ locale: "en-US", resources: resourcesFor("en-US") });
    expect(load).toHaveBeenCalledExactlyOnceWith("en-US");
  });

  it("rethrows when en-US itself fails", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const load = importer(["en-US"]);
    await expect(loadLocale("en-US", load)).rejects.toThrow("chunk for en-US failed");
    expect(load).toHaveBeenCalledOnce();
  });

  it("loads the real German texts with the default importer", async () => {
    const { locale, resources } = await loadLocale("de-DE");
    expect(locale).toBe("de-DE");
    expect((resources.common.nav as Record<string, string>).settings).toBe("Einstellungen");
  });
});

describe("createLocaleBackend", () => {
  function read(backend: ReturnType<typeof createLocaleBackend>, language: string, namespace: string) {
    return new Promise<{ error: unknown; data: unknown }>((resolve) => {
      backend.read(language, namespace, (error, data) => resolve({ error, data }));
    });
  }

  it("hands i18next the requested namespace", async () => {
    const backend = createLocaleBackend(importer());
    await expect(read(backend, "es-ES", "common")).resolves.toEqual({ error: null, data: { locale: "es-ES" } });
  });

  it("gives an empty namespace for one the locale lacks", async () => {
    await expect(read(createLocaleBackend(importer()), "es-ES", "missing")).resolves.toEqual({ error: null, data: {} });
  });

  it("reports a failure as an Error", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { error, data } = await read(createLocaleBackend(importer(["en-US"])), "en-US", "common");
    expect(error).toBeInstanceOf(Error);
    expect(data).toBeNull();
  });
});
