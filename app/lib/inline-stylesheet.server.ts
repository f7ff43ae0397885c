// The app's stylesheet as text, built by Vite like app.css itself, for the page's <head>.
import appCss from "~/app.css?inline";
import { encodedText, type EncodedText } from "./page-body.server";

/** Null in development, where root.tsx links the stylesheet for Vite to update (the same build-time check). */
export const APP_STYLESHEET: string | null = import.meta.env.DEV ? null : appCss;

/**
 * The stylesheet with its UTF-8 bytes, made once: React hands the page's writer the stylesheet as the same text on
 * every page, which would otherwise be encoded again each time (35 KB; see pageCollector).
 */
export const APP_STYLESHEET_TEXT: EncodedText | null = APP_STYLESHEET === null ? null : encodedText(APP_STYLESHEET);
