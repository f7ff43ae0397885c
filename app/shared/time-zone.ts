let byLowerCase: Map<string, string> | null = null;

function knownZones(): Map<string, string> {
  if (!byLowerCase) {
    let names: string[] = [];
    try {
      names = Intl.supportedValuesOf("timeZone");
    } catch {
      names = [];
    }
    byLowerCase = new Map(["UTC", ...names].map((name) => [name.toLowerCase(), name]));
  }
  return byLowerCase;
}

/**
 * The IANA name of a time zone written in any case ("europe/berlin" → "Europe/Berlin"),
 * or null when there is no such zone. Names the runtime lists are kept as listed; other
 * names it knows (older links such as "US/Pacific") become the name it resolves them to.
 */
export function canonicalTimeZone(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed.length === 0 || trimmed.length > 64) return null;
  const listed = knownZones().get(trimmed.toLowerCase());
  if (listed) return listed;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: trimmed }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** Whether the runtime knows the zone (in any case): the TimeZone scalar's check, and the forms'. */
export function isTimeZone(value: string): boolean {
  return canonicalTimeZone(value) !== null;
}
