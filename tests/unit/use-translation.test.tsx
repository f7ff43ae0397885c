import { createInstance } from "i18next";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { i18nextOptions } from "~/lib/i18n/config";
import { i18nFor, i18nRenderView } from "~/lib/i18n/middleware.server";
import { useTranslation, type Translation } from "~/lib/i18n/use-translation";

/** Renders components that record what `useTranslation` gave each of them. */
function renderRecording(i18n: Parameters<typeof I18nextProvider>[0]["i18n"], count: number) {
  const seen: Translation[] = [];
  function Label() {
    const translation = useTranslation();
    seen.push(translation);
    return <span>{translation.t("nav.settings")}</span>;
  }
  const html = renderToString(
    <I18nextProvider i18n={i18n}>
      {Array.from({ length: count }, (_, i) => (
        <Label key={i} />
      ))}
    </I18nextProvider>,
  );
  return { html, seen };
}

describe("useTranslation in the server render", () => {
  it("gives every component of every page one translation per instance, which words as i18next does", () => {
    const view = i18nRenderView(i18nFor("de-DE"));
    const first = renderRecording(view, 3);
    const second = renderRecording(view, 2);
    const [translation] = first.seen;
    expect(new Set([...first.seen, ...second.seen])).toEqual(new Set([translation]));
    expect(translation!.i18n).toBe(view);
    expect(translation!.ready).toBe(true);
    const [t, i18n, ready] = translation!;
    expect([t, i18n, ready]).toEqual([translation!.t, view, true]);
    expect(first.html).toBe(`<span>${i18nFor("de-DE").t("nav.settings")}</span>`.repeat(3));
    expect(first.html).toContain("Einstellungen");

    const french = renderRecording(i18nRenderView(i18nFor("fr-FR")), 1);
    expect(french.seen[0]).not.toBe(translation);
    expect(french.html).toBe(`<span>${i18nFor("fr-FR").t("nav.settings")}</span>`);
  });

  it("refuses an instance whose texts are not loaded, instead of rendering keys", () => {
    const empty = createInstance({ ...i18nextOptions, lng: "en-US", resources: {}, initAsync: false });
    void empty.init();
    expect(() => renderRecording(empty, 1)).toThrow('The "common" translations of en-US are not loaded.');
  });
});
