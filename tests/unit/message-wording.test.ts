import { describe, expect, it } from "vitest";
import { botTexts, i18nextBotTexts } from "~/api/bot/texts.server";
import { contentVersionFor, parseMessageContent, type MessageContent } from "~/shared/message-content";
import { wordMessage, type MessageReader, type MessageTexts } from "~/shared/message-wording";

// Tuesday 24 November 2026 in New York (UTC−5): 11:00 to 12:00 is 16:00 to 17:00 UTC.
const home = { id: "p1", label: "Home", timeZone: "America/New_York" };
const alert: MessageContent = {
  version: 1,
  kind: "ALERT",
  place: home,
  ruleName: "Warm",
  metric: "TEMPERATURE",
  comparator: "AT_LEAST",
  threshold: 20,
  from: "2026-11-24T16:00:00.000Z",
  to: "2026-11-24T17:00:00.000Z",
  peakAt: "2026-11-24T16:00:00.000Z",
  peakValue: 21.7,
};
const american: MessageReader = {
  locale: "en-US",
  timeZone: "America/New_York",
  hour12: true,
  temperatureUnit: "FAHRENHEIT",
  windSpeedUnit: "MPH",
  precipitationUnit: "INCH",
};
const german: MessageReader = {
  locale: "de-DE",
  timeZone: "America/New_York",
  hour12: false,
  temperatureUnit: "CELSIUS",
  windSpeedUnit: "KMH",
  precipitationUnit: "MM",
};
const texts =
  (locale: string): MessageTexts =>
  (key, values) =>
    i18nextBotTexts(locale)(key as never, values);
const word = (content: MessageContent, reader: MessageReader) => wordMessage(content, reader, texts(reader.locale));
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

describe("message wording", () => {
  it("words an alert in the reader's language, units and clock, naming the day once", () => {
    expect(word(alert, american)).toEqual({
      title: "Warm: Home",
      body: "Temperature 71 °F in Home from Tue 11:00 AM to 12:00 PM, peak 11:00 AM.",
    });
    expect(word(alert, german)).toEqual({ title: "Warm: Home", body: "Temperatur 22 °C in Home von Di 11:00 bis 12:00, Spitze 11:00." });
    expect(plain(word(alert, { ...german, locale: "fr-FR" }).body)).toBe("Température 22 °C à Home de mar. 11:00 à 12:00, pic à 11:00.");
    expect(word(alert, { ...german, locale: "es-ES" }).body).toBe("Temperatura 22 °C en Home de mar 11:00 a 12:00, máximo a las 11:00.");
  });

  it("the server's fast texts word it as i18next does", () => {
    expect(wordMessage(alert, german, (key, values) => botTexts("DE_DE")(key as never, values))).toEqual(word(alert, german));
  });

  it("names both days of a window over two days, and the peak's day when it is not the first", () => {
    const overnight = { ...alert, from: "2026-11-25T03:00:00.000Z", to: "2026-11-25T07:00:00.000Z", peakAt: "2026-11-25T06:00:00.000Z" };
    expect(word(overnight, american).body).toBe("Temperature 71 °F in Home from Tue 10:00 PM to Wed 2:00 AM, peak Wed 1:00 AM.");
    // A window that ends at midnight ends on its own day.
    const toMidnight = { ...alert, from: "2026-11-25T03:00:00.000Z", to: "2026-11-25T05:00:00.000Z", peakAt: "2026-11-25T03:00:00.000Z" };
    expect(word(toMidnight, german).body).toBe("Temperatur 22 °C in Home von Di 22:00 bis 00:00, Spitze 22:00.");
  });

  it("gives times in the place's zone, labelled with the zone only when the reader's zone differs", () => {
    const inBerlin = { ...german, timeZone: "Europe/Berlin" };
    expect(word(alert, inBerlin).body).toBe("Temperatur 22 °C in Home von Di 11:00 bis 12:00 GMT-5, Spitze 11:00.");
    expect(word(alert, { ...american, timeZone: "Europe/Berlin" }).body).toContain("to 12:00 PM GMT-5, peak");
    expect(word(alert, american).body).not.toContain("GMT");
    // Another zone name with the same clock is no different for the reader.
    expect(word(alert, { ...american, timeZone: "America/Toronto" }).body).not.toContain("GMT");
  });

  it("words conditions, precipitation in inches and wind in mph", () => {
    const storm = { ...alert, metric: "CONDITION" as const, condition: "THUNDERSTORM" as const, peakValue: 95, threshold: null };
    expect(word(storm, american).body).toBe("Thunderstorm in Home from Tue 11:00 AM to 12:00 PM.");
    expect(word(storm, german).body).toBe("Gewitter in Home von Di 11:00 bis 12:00.");
    expect(word({ ...alert, metric: "PRECIPITATION", peakValue: 12.7 }, american).body).toContain("Precipitation 0.5 in in Home");
    expect(word({ ...alert, metric: "WIND_GUSTS", peakValue: 80.47 }, american).body).toContain("Gusts 50 mph");
    expect(word({ ...alert, metric: "WIND_GUSTS", peakValue: 80.47 }, german).body).toContain("Böen 80 km/h");
  });

  it("words a shower starting soon with its wettest quarter hour, in the reader's language and units", () => {
    const shower = { ...alert, metric: "RAIN_SOON" as const, threshold: 30, to: "2026-11-24T16:45:00.000Z", peakValue: 1.27 };
    expect(word(shower, german).body).toBe("Bald Regen in Home: von Di 11:00 bis 11:45, bis 1,3 mm pro Viertelstunde.");
    expect(word(shower, american).body).toBe("Rain soon in Home: from Tue 11:00 AM to 11:45 AM, up to 0.05 in per quarter hour.");
  });

  it("writes content a browser of the build before can word as version 1, and the new metrics as version 2, which it leaves to the stored text", () => {
    expect(["WIND_GUSTS", "CONDITION", null].map(contentVersionFor)).toEqual([1, 1, 1]);
    expect(["RAIN_SOON", "AQI"].map(contentVersionFor)).toEqual([2, 2]);
    // This build words both; a build before it accepted exactly its own version (1).
    expect(parseMessageContent(JSON.stringify({ ...alert, version: 1 }))).not.toBeNull();
    expect(parseMessageContent(JSON.stringify({ ...alert, metric: "RAIN_SOON", version: 2 }))).not.toBeNull();
    expect(parseMessageContent(JSON.stringify({ ...alert, version: 3 }))).toBeNull();
  });

  it("names an AQI figure's scale, in the reader's language, whatever their scale is now", () => {
    const smoke = { ...alert, metric: "AQI" as const, aqiScale: "EUROPEAN" as const, peakValue: 90, threshold: 60, version: 2 };
    expect(word(smoke, german).body).toBe("Europäischer LQI 90 in Home von Di 11:00 bis 12:00, Spitze 11:00.");
    expect(word(smoke, american).body).toBe("European AQI 90 in Home from Tue 11:00 AM to 12:00 PM, peak 11:00 AM.");
  });

  it("words an all-clear", () => {
    const clear: MessageContent = {
      version: 1,
      kind: "ALL_CLEAR",
      place: home,
      ruleName: "Warm",
      metric: "TEMPERATURE",
      comparator: "AT_LEAST",
      threshold: 20,
    };
    expect(word(clear, american)).toEqual({ title: "All clear: Home", body: "Warm: the forecast for Home is back within your limit." });
    expect(word(clear, german).title).toBe("Entwarnung: Home");
  });

  it("words a briefing's figures per place, in the reader's units and clock", () => {
    const briefing: MessageContent = {
      version: 1,
      kind: "BRIEFING",
      briefingName: "Morning",
      period: "TOMORROW",
      places: [
        {
          place: home,
          condition: "RAIN",
          minTemperature: 10,
          maxTemperature: 15,
          rainFrom: "2026-11-24T19:00:00.000Z",
          rainProbability: 80,
          maxGusts: 50,
        },
        {
          place: { id: "p2", label: "Cabin", timeZone: "America/New_York" },
          condition: "CLEAR",
          minTemperature: -2,
          maxTemperature: 3,
          maxGusts: 10,
        },
        { place: { id: "p3", label: "Far", timeZone: "America/New_York" } },
      ],
    };
    expect(word(briefing, american)).toEqual({
      title: "Morning · Tomorrow",
      body: "Home: rain, 50 °F to 59 °F, rain from 2:00 PM (80%), gusts up to 31 mph.\nCabin: clear, 28 °F to 37 °F, dry.\nFar: no forecast available right now",
    });
    expect(plain(word(briefing, german).body)).toBe(
      "Home: Regen, 10 °C bis 15 °C, Regen ab 14:00 (80 %), Böen bis 50 km/h.\nCabin: klar, -2 °C bis 3 °C, trocken.\nFar: gerade keine Vorhersage verfügbar",
    );
    expect(word(briefing, { ...german, timeZone: "Europe/Berlin" }).body).toContain("Regen ab 14:00 GMT-5 (80");
    expect(word({ ...briefing, places: [] }, german)).toEqual({
      title: "Morning · Morgen",
      body: "Dieser Wetterbericht hat noch keine Orte.",
    });
  });
});
