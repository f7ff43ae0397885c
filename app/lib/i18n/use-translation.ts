import { useContext } from "react";
import { getI18n, I18nContext, useTranslation as useI18nextTranslation, type UseTranslationResponse } from "react-i18next";
import type { i18n as I18n } from "i18next";

/** What components translate with: the `t` of the default namespace ("common"), its instance, and whether it is ready. */
export type Translation = UseTranslationResponse<"common", undefined>;

const renderTranslations = new WeakMap<I18n, Translation>();

/**
 * The server render's translation: one per i18next instance, made once. react-i18next's hook does the browser's work on
 * every call (it subscribes to language changes, builds its options and a copy of the instance, and asks for a fixed
 * `t` again): about 2 % of a visitor page's CPU. On the server none of that can matter: each component renders once,
 * and nothing changes an instance's language or resources (one instance per locale, every namespace loaded before the
 * first request: decision 017).
 */
function useRenderTranslation(): Translation {
  const i18n = useContext(I18nContext)?.i18n ?? getI18n();
  let translation = renderTranslations.get(i18n);
  if (!translation) {
    // react-i18next would suspend for texts still loading; none ever are on the server, so missing ones are a bug.
    if (!i18n.hasResourceBundle(i18n.language, "common")) throw new Error(`The "common" translations of ${i18n.language} are not loaded.`);
    const t = i18n.getFixedT(i18n.language, "common");
    translation = Object.assign([t, i18n, true], { t, i18n, ready: true }) as Translation;
    renderTranslations.set(i18n, translation);
  }
  return translation;
}

/** react-i18next's `useTranslation()` in the browser (a language change re-renders); on the server, `useRenderTranslation`. */
export const useTranslation: () => Translation = import.meta.env.SSR ? useRenderTranslation : () => useI18nextTranslation();
