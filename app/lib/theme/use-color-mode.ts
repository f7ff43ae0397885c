import { useCallback, useEffect } from "react";
import { Theme, useTheme } from "remix-themes";
import { COLOR_MODE_STORAGE_KEY, type ColorMode, type ColorModePreference } from "./color-mode";

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

  useEffect(() => {
    try {
      localStorage.setItem(COLOR_MODE_STORAGE_KEY, preference);
    } catch {
      // Storage can be unavailable (private mode, quota); the cookie still holds the preference.
    }
  }, [preference]);

  const setPreference = useCallback(
    (next: ColorModePreference) => setTheme(next === "system" ? null : next === "dark" ? Theme.DARK : Theme.LIGHT),
    [setTheme],
  );

  return { preference, mode: theme, setPreference };
}
