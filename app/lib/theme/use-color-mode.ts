import { useCallback, useEffect } from "react";
import { Theme, useTheme } from "remix-themes";
import { whenBrowserIdle } from "../browser-idle";
import { COLOR_MODE_STORAGE_KEY, type ColorMode, type ColorModePreference } from "./color-mode";

function mirror(preference: ColorModePreference) {
  try {
    localStorage.setItem(COLOR_MODE_STORAGE_KEY, preference);
  } catch {
    // Storage can be unavailable (private mode, quota); the cookie still holds the preference.
  }
}

/**
 * The user's colour-mode preference and the mode in effect, over remix-themes
 * (which keeps the cookie the server renders from). The preference is mirrored to
 * localStorage for code that runs without the server (the offline page).
 */
export function useColorMode(): {
  preference: ColorModePreference;
  mode: ColorMode | null;
  setPreference: (next: ColorModePreference) => void;
} {
  const [theme, setTheme, { definedBy }] = useTheme();
  const preference: ColorModePreference = definedBy === "SYSTEM" ? "system" : (theme ?? "system");

  // At idle: a page's first touch of localStorage waits for the browser to load the origin's storage (30 ms and more
  // on a busy phone), which in hydration's effects blocked the page just as it became usable (issue 35).
  useEffect(() => whenBrowserIdle(() => mirror(preference)), [preference]);

  const setPreference = useCallback(
    (next: ColorModePreference) => {
      // A choice is kept at once: the tab may close before the next idle moment.
      mirror(next);
      setTheme(next === "system" ? null : next === "dark" ? Theme.DARK : Theme.LIGHT);
    },
    [setTheme],
  );

  return { preference, mode: theme, setPreference };
}
