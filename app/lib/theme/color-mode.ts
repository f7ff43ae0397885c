export type ColorMode = "light" | "dark";
export type ColorModePreference = ColorMode | "system";

export const COLOR_MODE_PREFERENCES: readonly ColorModePreference[] = ["system", "light", "dark"];

/** Where the browser keeps a copy of the preference (the cookie is what the server reads). */
export const COLOR_MODE_STORAGE_KEY = "weatherbot-color-mode";

export function isColorModePreference(value: unknown): value is ColorModePreference {
  return value === "light" || value === "dark" || value === "system";
}

/** The preference after this one, for the header's one-button control. */
export function nextColorModePreference(current: ColorModePreference): ColorModePreference {
  const index = COLOR_MODE_PREFERENCES.indexOf(current);
  return COLOR_MODE_PREFERENCES[(index + 1) % COLOR_MODE_PREFERENCES.length] ?? "system";
}

/** What a route may put in its `handle` to force a colour mode while it is shown. */
export type ColorModeHandle = { colorMode?: unknown };

/**
 * The colour mode the deepest matched route forces, if any. `'system'` cannot be
 * forced: it is logged as a warning and the user's preference applies.
 */
export function forcedColorMode(handles: readonly unknown[]): ColorMode | null {
  for (let index = handles.length - 1; index >= 0; index--) {
    const handle = handles[index] as ColorModeHandle | undefined;
    const forced = handle?.colorMode;
    if (forced === undefined) continue;
    if (forced === "light" || forced === "dark") return forced;
    console.warn(
      `[color-mode] A route cannot force colour mode ${JSON.stringify(forced)}; only "light" or "dark". The saved preference applies.`,
    );
    return null;
  }
  return null;
}
