import type { i18n as I18n, TFunction } from "i18next";
import { createContext, useContext, useMemo } from "react";
import { useTranslation } from "react-i18next";

/** The instance and its own bound `t`, handed down to a page's parts (the cards take it as CardTranslation). */
export type PageTranslation = { t: TFunction; i18n: I18n };

/**
 * The page's translation, taken once by root.tsx's document with `useTranslation` and handed down. Each
 * `useTranslation` copies the i18next instance's own properties into a wrapper when it mounts (react-i18next 17):
 * on the server, where every component mounts once per page, those copies of one instance were 4 % of a visitor
 * page's CPU. A language change still renders every reader again: the document's `useTranslation` gives a new
 * wrapper, and with it a new value here.
 */
export const PageTranslationContext = createContext<PageTranslation | null>(null);

/** The value root.tsx provides: the instance with its own bound `t` (see usePageTranslation). */
export function usePageTranslationValue(): PageTranslation {
  const { i18n } = useTranslation();
  return useMemo(() => ({ t: i18n.t, i18n }), [i18n]);
}

/**
 * `useTranslation`'s instance with its own bound `t`, for the many texts of a page part. i18next's `getFixedT` (what
 * `useTranslation` returns as `t`) copies its options and the instance's on every call, about three times the work of
 * the instance's `t` per text, for the same answer here: the instance is the request's own locale on the server and
 * the page's in the browser.
 */
export function usePageTranslation(): PageTranslation {
  const translation = useContext(PageTranslationContext);
  if (!translation) throw new Error("usePageTranslation: render under root.tsx's PageTranslationContext");
  return translation;
}
