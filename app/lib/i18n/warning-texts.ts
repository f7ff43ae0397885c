import { lazyTexts, type JsonModule } from "./lazy-texts";

/**
 * The official warnings' texts on a place's card (locales/<locale>/warnings.json): a chunk of their own per locale,
 * out of the first load (only saved places have warnings); a signed-in page names its locale's (decision 018).
 */
export const warningTextsLoaded = lazyTexts("warnings", import.meta.glob<JsonModule>("../../../locales/*/warnings.json"));
