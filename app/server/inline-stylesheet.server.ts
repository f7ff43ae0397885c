// The app's stylesheet as text, built by Vite like app.css itself, for the page's <head>.
import appCss from "~/app.css?inline";

/** Null in development, where root.tsx links the stylesheet for Vite to update (the same build-time check). */
export const APP_STYLESHEET: string | null = import.meta.env.DEV ? null : appCss;
