import { useMemo } from "react";
import { useTranslation } from "react-i18next";

/**
 * `useTranslation`'s instance with its own bound `t`, taken once by a page part and handed down to the
 * many texts under it. i18next's `getFixedT` (what `useTranslation` returns as `t`) copies its options
 * and the instance's on every call, about three times the work of the instance's `t` per text, for the
 * same answer here: the instance is the request's own locale on the server and the page's in the browser,
 * and a language change still renders again (react-i18next gives a new instance wrapper).
 */
export function usePageTranslation() {
  const { i18n } = useTranslation();
  return useMemo(() => ({ t: i18n.t, i18n }), [i18n]);
}
