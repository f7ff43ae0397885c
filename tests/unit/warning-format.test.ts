import { describe, expect, it } from "vitest";
import { isUrgentWarning, warningContent, warningTexts } from "~/api/bot/warning-text.server";
import type { PlaceTable } from "~/api/db/tables";
import type { OfficialWarning } from "~/api/warnings/official-warnings.server";
import { parseMessageContent, WARNING_CONTENT_VERSION, type MessageContent, type WarningContent } from "~/shared/message-content";
import { formatMessage, type MessageReader } from "~/shared/message-format";
import { plain, texts } from "../support/message-texts";

const mobile = { id: "p1", label: "Mobile", timeZone: "America/Chicago" };
const office = { id: "p2", label: "Office", timeZone: "America/Chicago" };
const alps = { id: "p3", label: "Chalet", timeZone: "Europe/Paris" };

/** The NWS Tornado Watch of tests/fixtures/warnings/nws (issued 12:06 CST until 18:00 CST), as a message tells it. */
const tornadoWatch: WarningContent = {
  warningId: "nws:urn:oid:2.49.0.1.840.0.f95cf0f79f72666950dffd7631c8e3ea59badf98.001.1",
  change: "ISSUED",
  service: "US National Weather Service",
  severity: "EXTREME",
  urgency: "FUTURE",
  area: "Butler, AL; Choctaw, AL",
  sent: "2025-11-25T18:06:00.000Z",
  onset: "2025-11-25T18:06:00.000Z",
  expires: "2025-11-26T00:00:00.000Z",
  texts: [
    {
      language: "en-US",
      event: "Tornado Watch",
      headline: "Tornado Watch issued November 25 at 12:06PM CST until November 25 at 6:00PM CST by NWS Mobile AL",
      description: "TORNADO WATCH 641 REMAINS VALID UNTIL 6 PM CST THIS EVENING",
      instruction: null,
    },
  ],
  places: [mobile, office],
  web: null,
};

/** Météo-France's avalanche warning (tests/fixtures/warnings/meteoalarm), French and English, from 06:00 the next morning. */
const avalanche: WarningContent = {
  warningId: "meteoalarm:2.49.0.0.250.0.FR.20221206160108.315028",
  change: "UPDATED",
  service: "MeteoAlarm / METEO-FRANCE",
  severity: "MODERATE",
  urgency: "UNKNOWN",
  area: "Isere; Savoie",
  sent: "2022-12-06T17:00:00.000Z",
  onset: "2022-12-07T05:00:00.000Z",
  expires: "2022-12-07T22:59:00.000Z",
  texts: [
    {
      language: "fr-FR",
      event: "Vigilance jaune avalanches",
      headline: "Vigilance jaune avalanches",
      description: "Soyez attentifs.",
      instruction: null,
    },
    {
      language: "en-GB",
      event: "Moderate avalanches warning",
      headline: "Moderate avalanches warning",
      description: "Be aware.",
      instruction: "Keep informed.",
    },
  ],
  places: [alps],
  web: "http://vigilance.meteofrance.com/",
};

const content = (warning: WarningContent): MessageContent => ({
  version: WARNING_CONTENT_VERSION,
  kind: "WARNING",
  place: warning.places[0]!,
  warning,
});
const reader = (locale: string, timeZone = "America/Chicago"): MessageReader => ({
  locale,
  timeZone,
  hour12: locale === "en-US",
  temperatureUnit: "CELSIUS",
  windSpeedUnit: "KMH",
  precipitationUnit: "MM",
});
const format = (warning: WarningContent, who: MessageReader) => formatMessage(content(warning), who, texts(who.locale));

describe("official warnings' formatting", () => {
  it("tells an issued warning in four languages: the service, the event, the places, until when, how severe and urgent", () => {
    expect(format(tornadoWatch, reader("en-US"))).toEqual({
      title: "Severe weather warning: Tornado Watch — Mobile and Office",
      body: [
        "US National Weather Service: Tornado Watch for Mobile and Office until Tue 6:00 PM (extreme, future).",
        "Tornado Watch issued November 25 at 12:06PM CST until November 25 at 6:00PM CST by NWS Mobile AL",
        "TORNADO WATCH 641 REMAINS VALID UNTIL 6 PM CST THIS EVENING",
        "Area: Butler, AL; Choctaw, AL",
      ].join("\n"),
    });
    // Readers elsewhere get the place's time with its offset named.
    const german = format(tornadoWatch, reader("de-DE", "Europe/Berlin"));
    expect(german.title).toBe("Unwetterwarnung: Tornado Watch — Mobile und Office");
    expect(german.body.split("\n")[0]).toBe(
      "US National Weather Service: Tornado Watch für Mobile und Office bis Di 18:00 GMT-6 (extrem, später).",
    );
    expect(german.body.split("\n")[3]).toBe("Gebiet: Butler, AL; Choctaw, AL");
    const french = format(tornadoWatch, reader("fr-FR", "Europe/Paris"));
    expect(plain(french.title)).toBe("Alerte météo sévère : Tornado Watch — Mobile et Office");
    expect(plain(french.body.split("\n")[0]!)).toBe(
      "US National Weather Service : Tornado Watch pour Mobile et Office jusqu’à mar. 18:00 UTC−6 (extrême, à venir).",
    );
    const spanish = format(tornadoWatch, reader("es-ES", "Europe/Madrid"));
    expect(spanish.title).toBe("Aviso de tiempo severo: Tornado Watch — Mobile y Office");
    expect(spanish.body.split("\n")[0]).toBe(
      "US National Weather Service: Tornado Watch para Mobile y Office hasta mar 18:00 GMT-6 (extremo, futuro).",
    );
  });

  it("tells the service's own words in the reader's language where it wrote them, else English", () => {
    const french = format(avalanche, reader("fr-FR", "Europe/Paris"));
    expect(plain(french.title)).toBe("Vigilance mise à jour : Vigilance jaune avalanches — Chalet");
    // A headline that only repeats the event is left out; a severity or urgency the service did not give, too.
    expect(plain(french.body)).toBe(
      [
        "MeteoAlarm / METEO-FRANCE : Vigilance jaune avalanches pour Chalet de mer. 06:00 à mer. 23:59 (modérée).",
        "Soyez attentifs.",
        "Zone : Isere; Savoie",
      ].join("\n"),
    );
    expect(format(avalanche, reader("de-DE", "Europe/Berlin"))).toEqual({
      title: "Warnung aktualisiert: Moderate avalanches warning — Chalet",
      body: [
        "MeteoAlarm / METEO-FRANCE: Moderate avalanches warning für Chalet von Mi 06:00 bis Mi 23:59 (mäßig).",
        "Be aware.",
        "Keep informed.",
        "Gebiet: Isere; Savoie",
      ].join("\n"),
    });
    expect(format(avalanche, reader("es-ES", "Europe/Madrid")).title).toBe("Aviso actualizado: Moderate avalanches warning — Chalet");
    expect(format(avalanche, reader("en-US", "Europe/Paris")).body.split("\n")[0]).toBe(
      "MeteoAlarm / METEO-FRANCE: Moderate avalanches warning for Chalet from Wed 6:00 AM until Wed 11:59 PM (moderate).",
    );
  });

  it("tells a warning's end in one line, and a lesser warning without 'severe'", () => {
    const cleared = { ...tornadoWatch, change: "CLEARED" as const };
    expect(format(cleared, reader("en-US"))).toEqual({
      title: "Warning over: Tornado Watch — Mobile and Office",
      body: "US National Weather Service: Tornado Watch for Mobile and Office is no longer in force.",
    });
    expect(format(cleared, reader("de-DE")).title).toBe("Warnung aufgehoben: Tornado Watch — Mobile und Office");
    expect(plain(format(cleared, reader("fr-FR")).body)).toBe(
      "US National Weather Service : Tornado Watch pour Mobile et Office n’est plus en vigueur.",
    );
    expect(format(cleared, reader("es-ES")).title).toBe("Fin del aviso: Tornado Watch — Mobile y Office");
    expect(format({ ...tornadoWatch, severity: "MINOR" }, reader("en-US")).title).toBe(
      "Weather warning: Tornado Watch — Mobile and Office",
    );
    expect(format({ ...tornadoWatch, severity: "MINOR" }, reader("es-ES")).title).toBe(
      "Aviso meteorológico: Tornado Watch — Mobile y Office",
    );
  });

  it("keeps a feed's long texts short in a message, whatever the feed sends", () => {
    const long = "Lorem ipsum dolor sit amet. ".repeat(500);
    const { body } = format(
      { ...tornadoWatch, texts: [{ ...tornadoWatch.texts[0]!, description: long, instruction: long }] },
      reader("en-US"),
    );
    expect(body.length).toBeLessThan(2_000);
    expect(body).toContain("…");
  });

  it("is content a browser formats (version 4), which the build before leaves to the stored text", () => {
    expect(parseMessageContent(JSON.stringify(content(tornadoWatch)))).toEqual(content(tornadoWatch));
    expect(WARNING_CONTENT_VERSION).toBe(4);
  });
});

describe("a warning's content", () => {
  const warning = (texts: OfficialWarning["texts"]): OfficialWarning => ({
    id: "meteoalarm:root",
    messageId: "message",
    messageType: "Alert",
    replaces: null,
    references: [],
    service: "MeteoAlarm / KMI-IRM",
    serviceId: "meteoalarm",
    issuer: "KMI-IRM",
    event: texts[0]!.event,
    severity: "Severe",
    urgency: "Immediate",
    certainty: "Likely",
    area: "Brussels",
    match: "area-name",
    sent: "2026-01-10T08:00:00.000Z",
    onset: "2026-01-10T09:00:00.000Z",
    expires: "2026-01-10T20:00:00.000Z",
    language: texts[0]!.language,
    headline: null,
    description: null,
    instruction: null,
    texts,
    web: null,
  });
  const text = (language: string) => ({
    language,
    event: `storm (${language})`,
    headline: null,
    description: "x".repeat(5_000),
    instruction: null,
  });
  const place = { id: "p", label: "Home", time_zone: "Europe/Brussels" } as PlaceTable;

  it("keeps the words each language of the app reads, at most four, bounded", () => {
    const made = warningContent(warning(["nl-BE", "fr-BE", "de-BE", "en-GB", "fr-FR"].map(text)), [place], "ISSUED");
    // German and French readers get their language (French of France before Belgium's); English and Spanish ones
    // English; Dutch is nobody's. In the service's order.
    expect(made.texts.map((each) => each.language)).toEqual(["de-BE", "en-GB", "fr-FR"]);
    expect(made.texts[0]!.description!.length).toBeLessThanOrEqual(800);
    expect(made).toMatchObject({
      severity: "SEVERE",
      urgency: "IMMEDIATE",
      places: [{ id: "p", label: "Home", timeZone: "Europe/Brussels" }],
    });
    // What no text should hold (PostgreSQL refuses NUL; overrides turn text around) is left out.
    const hostile = warningContent({ ...warning([text("en-GB")]), service: "A\u0000B\u202eC", area: "x\u0007y\ud800" }, [place], "ISSUED");
    expect([hostile.service, hostile.area]).toEqual(["ABC", "xy"]);
    // Only Dutch: everyone reads the first.
    expect(warningTexts([text("nl-BE")]).map((each) => each.language)).toEqual(["nl-BE"]);
  });

  it("is urgent (through quiet hours) for extreme and severe warnings, never for their end", () => {
    expect(isUrgentWarning({ severity: "EXTREME", change: "ISSUED" })).toBe(true);
    expect(isUrgentWarning({ severity: "SEVERE", change: "UPDATED" })).toBe(true);
    expect(isUrgentWarning({ severity: "MODERATE", change: "ISSUED" })).toBe(false);
    expect(isUrgentWarning({ severity: "EXTREME", change: "CLEARED" })).toBe(false);
  });
});
