import Bowser from "bowser";
import type { DeviceType } from "../../shared/schema-enums.generated";

/** What the sessions list says of a session's client. */
export type ClientDescription = { browser: string | null; os: string | null; deviceType: DeviceType };

const DEVICE_TYPES: Record<string, DeviceType> = { desktop: "DESKTOP", mobile: "MOBILE", tablet: "TABLET", tv: "TV" };

const major = (version: string | undefined) => version?.split(".")[0] || undefined;
const named = (...parts: Array<string | undefined>) => parts.filter(Boolean).join(" ") || null;

/**
 * A User-Agent read by bowser (MIT, kept up with new browsers): the browser and its major version, the system and its
 * version's name where it has one ("Windows 10", "macOS"), the kind of device. Nothing is guessed beyond what bowser
 * knows: an unknown or missing User-Agent is null, OTHER.
 */
export function describeClient(userAgent: string | null): ClientDescription {
  if (!userAgent) return { browser: null, os: null, deviceType: "OTHER" };
  const { browser, os, platform } = Bowser.parse(userAgent);
  return {
    browser: browser.name ? named(browser.name, major(browser.version)) : null,
    os: os.name ? named(os.name, os.versionName ?? major(os.version)) : null,
    deviceType: (platform.type && DEVICE_TYPES[platform.type]) || "OTHER",
  };
}
