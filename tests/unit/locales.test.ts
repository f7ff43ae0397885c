import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_LOCALE, SUPPORTED_LOCALES } from "~/lib/i18n/config";

const LOCALES_DIR = path.resolve(import.meta.dirname, "../../locales");

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

function namespaceFiles(locale: string): string[] {
  return readdirSync(path.join(LOCALES_DIR, locale))
    .filter((file) => file.endsWith(".json"))
    .sort();
}

/** Every leaf of a locale file as "dotted.key" → value. */
function flatten(value: Json, prefix = "", into = new Map<string, Json>()): Map<string, Json> {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) flatten(child, prefix ? `${prefix}.${key}` : key, into);
  } else {
    into.set(prefix, value);
  }
  return into;
}

function readFlat(locale: string, file: string): Map<string, Json> {
  return flatten(JSON.parse(readFileSync(path.join(LOCALES_DIR, locale, file), "utf8")) as Json);
}

/** {{i18next}} and {radix} placeholders of a text, sorted. */
function placeholders(text: Json | undefined): string[] {
  return typeof text === "string" ? (text.match(/\{\{[^{}]+\}\}|\{[^{}]+\}/g) ?? []).map((p) => p.replace(/\s/g, "")).sort() : [];
}

const referenceFiles = namespaceFiles(DEFAULT_LOCALE);

describe("locale folders", () => {
  it("exist for exactly the supported locales", () => {
    const folders = readdirSync(LOCALES_DIR, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.sort()).toEqual([...SUPPORTED_LOCALES].sort());
  });

  it("have a reference namespace", () => {
    expect(referenceFiles).toContain("common.json");
  });
});

describe.each(SUPPORTED_LOCALES)("%s", (locale) => {
  it("has the same namespace files as en-US", () => {
    expect(namespaceFiles(locale)).toEqual(referenceFiles);
  });

  describe.each(referenceFiles)("%s", (file) => {
    const reference = readFlat(DEFAULT_LOCALE, file);
    const texts = readFlat(locale, file);

    it("has exactly the keys of en-US", () => {
      const missing = [...reference.keys()].filter((key) => !texts.has(key));
      const extra = [...texts.keys()].filter((key) => !reference.has(key));
      expect({ missing, extra }, `${locale}/${file}: missing ${missing.join(", ") || "none"}; extra ${extra.join(", ") || "none"}`).toEqual(
        {
          missing: [],
          extra: [],
        },
      );
    });

    it("has a non-empty string for every key", () => {
      const bad = [...texts].filter(([, value]) => typeof value !== "string" || value.trim() === "").map(([key]) => key);
      expect(bad, `${locale}/${file}: empty or non-string texts at ${bad.join(", ")}`).toEqual([]);
    });

    it("uses the same interpolation variables as en-US", () => {
      const mismatched = [...reference]
        .filter(([key, value]) => placeholders(value).join() !== placeholders(texts.get(key)).join())
        .map(
          ([key, value]) =>
            `${key} (en-US ${placeholders(value).join(" ") || "none"}, ${locale} ${placeholders(texts.get(key)).join(" ") || "none"})`,
        );
      expect(mismatched, `${locale}/${file}: ${mismatched.join("; ")}`).toEqual([]);
    });
  });
});
