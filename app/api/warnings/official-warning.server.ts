/**
 * What the official-warnings layer hands to its callers (the alert engine, the place card): one
 * normalised shape for the US National Weather Service's alerts and MeteoAlarm's CAP 1.2 warnings,
 * and a typed outcome instead of an exception. Decision 022 says why it looks like this.
 */

/** CAP 1.2 `severity`, `urgency` and `certainty`; anything else a feed sends becomes "Unknown". */
export type WarningSeverity = "Extreme" | "Severe" | "Moderate" | "Minor" | "Unknown";
export type WarningUrgency = "Immediate" | "Expected" | "Future" | "Past" | "Unknown";
export type WarningCertainty = "Observed" | "Likely" | "Possible" | "Unlikely" | "Unknown";
/** CAP `msgType`: the first message, a change of it, or its withdrawal (Ack and Error messages are left out). */
export type WarningMessageType = "Alert" | "Update" | "Cancel";

/** The services this layer reads. */
export type WarningServiceId = "nws" | "meteoalarm";

/** One language's words of a warning, as the service wrote them (a CAP `info` block). */
export type WarningText = {
  /** The block's language tag as the feed gives it (CAP's default, en-US, when it gives none). */
  language: string;
  event: string;
  headline: string | null;
  description: string | null;
  instruction: string | null;
};

/**
 * How precisely the warning was matched to the place: its polygon contains the point (NWS: the
 * service matched the point itself), one of its area names is the place's name or region, or only
 * its country is the place's (the area names say where; decision 022).
 */
export type WarningMatch = "point" | "area-name" | "country";

export type OfficialWarning = {
  /**
   * Stable across updates and the cancellation: the service and the first message of its CAP
   * `references` chain (the message's own identifier when it references none).
   */
  id: string;
  /** This message's CAP identifier. */
  messageId: string;
  messageType: WarningMessageType;
  /** For an Update or Cancel: the identifier of the latest message it replaces; null for an Alert. */
  replaces: string | null;
  /** Every identifier the message references, oldest first. */
  references: string[];
  /** The credit to show: "US National Weather Service", or "MeteoAlarm / <national service>". */
  service: string;
  serviceId: WarningServiceId;
  /** The issuing office as the message names it (NWS: "NWS Mobile AL"; MeteoAlarm: the national service). */
  issuer: string | null;
  event: string;
  severity: WarningSeverity;
  urgency: WarningUrgency;
  certainty: WarningCertainty;
  /** The areas it covers that concern the place (all of them for a country match), as the service names them. */
  area: string;
  match: WarningMatch;
  /** ISO instants (UTC); null when the message leaves them out. */
  sent: string | null;
  onset: string | null;
  /** When the hazard ends (NWS `ends`, else the message's `expires`). */
  expires: string | null;
  /** In the reader's language when the service wrote one, else English, else its first language. */
  language: string;
  headline: string | null;
  description: string | null;
  instruction: string | null;
  /** Every language the service wrote the warning in. */
  texts: WarningText[];
  /** The service's page for it, when the message gives one. */
  web: string | null;
};

/** Why no warnings could be given for an area right now. */
export type UnavailableReason =
  /** No answer in time. */
  | "timeout"
  /** No answer at all: refused, reset, DNS. */
  | "unreachable"
  /** An HTTP error status. */
  | "http-error"
  /** A body over the size cap. */
  | "too-large"
  /** Bytes that are not the text encoding they claim (or one this layer does not read). */
  | "bad-encoding"
  /** Not the format it should be: malformed XML or JSON, or required fields missing. */
  | "malformed"
  /** An XML document with a DTD or entity declarations: refused unread (entity expansion stays off). */
  | "refused-dtd"
  /** A fault of this layer's own (logged as an error). */
  | "internal";

export type WarningsOutcome =
  | {
      status: "ok";
      serviceId: WarningServiceId;
      warnings: OfficialWarning[];
      /** When the service's answer these come from arrived. */
      fetchedAt: Date;
      /** True while the service fails and the last answer it gave (not older than the layer's limit) is served. */
      stale: boolean;
      /**
       * MeteoAlarm: identifiers of Update/Cancel messages in the feed whose CAP documents could not be read:
       * the warnings they change are missing or out of date here, so a caller should not treat a warning
       * missing from this answer as ended while this is not empty.
       */
      incomplete: string[];
    }
  | { status: "not-covered"; reason: "no-country" | "outside-covered-areas" }
  | { status: "unavailable"; serviceId: WarningServiceId; reason: UnavailableReason; message: string };

/** A place as the warnings layer needs it (a saved place's row has all of these). */
export type WarningPlace = {
  latitude: number;
  longitude: number;
  /** ISO 3166-1 alpha-2, as places and Open-Meteo's geocoding give it. */
  countryCode?: string | null;
  /** The place's name and first-level region: used to match MeteoAlarm area names when a warning has no polygon. */
  name?: string | null;
  admin1?: string | null;
};

export type Coverage =
  | {
      covered: true;
      serviceId: WarningServiceId;
      /** The service to credit on the card ("US National Weather Service", "MeteoAlarm"). */
      credit: string;
      /** The shared area the place's warnings are fetched for: an NWS grid point or a MeteoAlarm country. */
      areaKey: string;
    }
  | {
      covered: false;
      /** No country is known for the place, or its country has no service this layer reads. */
      reason: "no-country" | "outside-covered-areas";
    };

export const NWS_CREDIT = "US National Weather Service";
export const METEOALARM_CREDIT = "MeteoAlarm";
