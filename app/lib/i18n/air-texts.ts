import { lazyTexts, type JsonModule } from "./lazy-texts";

/** The air-quality line's texts (locales/<locale>/air.json): a chunk of their own per locale, out of the first load. */
export const airTextsLoaded = lazyTexts("air", import.meta.glob<JsonModule>("../../../locales/*/air.json"));
