import type { StarterRule } from "./schema-enums.generated";

/** Each starter rule's key under `starterRules.names` in the app's texts (locales/<locale>/common.json). */
export const STARTER_NAME_KEYS: Record<StarterRule, string> = {
  GUSTS: "gusts",
  THUNDERSTORM: "thunderstorm",
  HEAVY_RAIN: "heavyRain",
  FROST: "frost",
  HEAT: "heat",
};
