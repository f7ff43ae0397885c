import type { ValidationResult } from "./route-validation";

export const SETTINGS_SECTIONS = [
  "account",
  "places",
  "briefings",
  "alerts",
  "preferences",
  "app",
  "appearance",
  "language",
  "privacy",
] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

/** `/settings?section=` names one section to jump to; anything else is not a page. */
export function parseSettingsSection(
  raw: string | null,
  unknownMessage: (section: string) => string,
): ValidationResult<SettingsSection | null> {
  if (raw === null) return { ok: true, value: null };
  if ((SETTINGS_SECTIONS as readonly string[]).includes(raw)) return { ok: true, value: raw as SettingsSection };
  return { ok: false, message: unknownMessage(raw) };
}
