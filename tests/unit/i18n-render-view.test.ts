import { createInstance, type i18n } from "i18next";
import { describe, expect, it, vi } from "vitest";
import { i18nextOptions, SUPPORTED_LOCALES } from "~/lib/i18n/config";
import { RouterContextProvider } from "react-router";
import { i18nextMiddleware, i18nFor, i18nRenderView, KEPT_TEXTS_MAX, requestT } from "~/lib/i18n/middleware.server";
import { allResources } from "~/lib/i18n/resources.server";

/** A fixed t as these tests call it: any key, any options (i18next's types allow only known keys and namespaces). */
type LooseT = (key: string | string[], options?: unknown) => string;
const fixedT = (instance: i18n, locale: string, namespace: string) =>
  (instance.getFixedT as unknown as (lng: string, ns: string) => LooseT)(locale, namespace);

/** An instance of its own, whose render view has kept no text yet. */
function freshInstance(locale: string): i18n {
  const instance = createInstance({ ...i18nextOptions, lng: locale, resources: allResources, initAsync: false });
  void instance.init();
  return instance;
}

/** Every key of a namespace's texts ("a.b.c"), plural forms by their base key. */
function keysOf(texts: Record<string, unknown>, prefix = ""): string[] {
  return Object.entries(texts).flatMap(([key, value]) => {
    const path = `${prefix}${key.replace(/_(zero|one|two|few|many|other)$/, "")}`;
    return typeof value === "object" && value !== null ? keysOf(value as Record<string, unknown>, `${path}.`) : [path];
  });
}

/** Values for every {{name}} a text of the namespace interpolates, so each text is worded whole. */
function valuesFor(texts: Record<string, unknown>): Record<string, string> {
  const names = new Set([...JSON.stringify(texts).matchAll(/\{\{\s*([\w.]+)/g)].map((match) => match[1]!));
  return Object.fromEntries([...names].map((name) => [name, `«${name}»`]));
}

describe("the server render's i18next view", () => {
  it("words every key of every namespace as i18next's own fixed t does, with and without options, in every locale", () => {
    let compared = 0;
    for (const locale of SUPPORTED_LOCALES) {
      const instance = i18nFor(locale);
      const view = i18nRenderView(instance);
      for (const [namespace, texts] of Object.entries(allResources[locale]!)) {
        const viewT = fixedT(view, locale, namespace);
        const ownT = fixedT(instance, locale, namespace);
        // The view's is a function of its own, not i18next's (else this would compare i18next with itself).
        expect(viewT).not.toBe(ownT);
        const values = valuesFor(texts as Record<string, unknown>);
        for (const key of new Set(keysOf(texts as Record<string, unknown>))) {
          for (const options of [undefined, values, { ...values, count: 1 }, { ...values, count: 7 }, { ...values, count: 0 }]) {
            expect(viewT(key, options), `${locale} ${namespace}:${key}`).toBe(ownT(key, options));
            compared++;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it("honours a call's own namespace and language, and keeps i18next's for other kinds of call", () => {
    const instance = i18nFor("de-DE");
    const t = fixedT(i18nRenderView(instance), "de-DE", "common");
    const own = fixedT(instance, "de-DE", "common");
    expect(t("label", { ns: "air", category: "gut", scale: "EAQI", value: "3" })).toBe(
      own("label", { ns: "air", category: "gut", scale: "EAQI", value: "3" }),
    );
    expect(t("home.title", { lng: "fr-FR" })).toBe(own("home.title", { lng: "fr-FR" }));
    expect(t("home.title", { lng: "fr-FR" })).not.toBe(t("home.title"));
    expect(t(["missing.key", "home.title"])).toBe(own(["missing.key", "home.title"]));
    expect(t("missing.key", "Ersatz")).toBe(own("missing.key", "Ersatz"));
  });

  it("keeps the texts it gave: the same key with the same plain values is translated once", () => {
    const instance = freshInstance("fr-FR");
    const t = fixedT(i18nRenderView(instance), "fr-FR", "common");
    const options = { ns: "air", category: "bon", scale: "EAQI", value: "3" };
    const ownText = fixedT(instance, "fr-FR", "common")("label", { ...options, value: 3 });
    const translate = vi.spyOn(instance, "t");
    try {
      const first = t("label", options);
      expect(t("label", { ...options })).toBe(first);
      expect(translate).toHaveBeenCalledTimes(1);
      // Another value of any kind is another text.
      expect(t("label", { ...options, value: 3 })).toBe(ownText);
      expect(t("label", { ...options, value: "4" })).not.toBe(first);
      expect(translate).toHaveBeenCalledTimes(3);
      // An option that is not a plain value is never kept: its text is translated each time.
      const listed = { ...options, ns: ["air"] };
      expect(t("label", listed)).toBe(first);
      expect(t("label", listed)).toBe(first);
      expect(translate).toHaveBeenCalledTimes(5);
    } finally {
      translate.mockRestore();
    }
  });

  it("starts again when it has kept as many texts as it may", () => {
    const instance = freshInstance("es-ES");
    const t = fixedT(i18nRenderView(instance), "es-ES", "air");
    const translate = vi.spyOn(instance, "t");
    try {
      const word = (n: number) => t("label", { category: `c${n}`, scale: "EAQI", value: "1" });
      const first = word(0);
      for (let n = 1; n < KEPT_TEXTS_MAX; n++) word(n);
      expect(word(0)).toBe(first);
      expect(translate).toHaveBeenCalledTimes(KEPT_TEXTS_MAX);
      // Any further text is one too many: what was kept is let go, and the first text is translated again.
      word(KEPT_TEXTS_MAX);
      expect(word(0)).toBe(first);
      expect(translate).toHaveBeenCalledTimes(KEPT_TEXTS_MAX + 2);
    } finally {
      translate.mockRestore();
    }
  });

  it("gives loaders the request's lean fixed t: the locale's texts, each translated once", async () => {
    const context = new RouterContextProvider();
    const request = new Request("http://localhost/", { headers: { "Accept-Language": "de-DE,de;q=0.9" } });
    await i18nextMiddleware({ request, context, params: {}, unstable_pattern: "/" } as never, async () => new Response(null));
    const instance = i18nFor("de-DE");
    const own = fixedT(instance, "de-DE", "common");
    const title = own("home.title");
    const notFound = own("errors.pageNotFound", { path: "/nowhere" });
    const translate = vi.spyOn(instance, "t");
    const t = requestT(context);
    expect(t("home.title")).toBe(title);
    expect(t("errors.pageNotFound", { path: "/nowhere" })).toBe(notFound);
    const asked = translate.mock.calls.length;
    // The next request of that locale gets the texts already worded.
    expect(requestT(context)("home.title")).toBe(title);
    expect(requestT(context)("errors.pageNotFound", { path: "/nowhere" })).toBe(notFound);
    expect(translate).toHaveBeenCalledTimes(asked);
  });
});
