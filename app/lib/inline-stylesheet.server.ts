// The app's stylesheet as text, built by Vite like app.css itself, for the page's <head>.
import appCss from "~/app.css?inline";

export const APP_STYLESHEET: string = appCss;
