import { describe, expect, it } from "vitest";
import { botTexts } from "~/api/bot/texts.server";
import { contentVersionFor, parseMessageContent, type MessageContent } from "~/shared/message-content";
import { formatMessage, type MessageReader } from "~/shared/message-format";
import { plain, texts } from "../support/message-texts";

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
const format = (content: MessageContent, reader: MessageReader) => formatMessage(content, reader, texts(reader.locale));

describe("message formatting", () => {
  it("formats an alert in the reader's language, units and clock, naming the day once", () => {
    expect(format(alert, american)).toEqual({
      title: "Warm: Home",
      body: "Temperature 71 °F in Home from Tue 11:00 AM to 12:00 PM, peak 11:00 AM.",
    });
    expect(format(alert, german)).toEqual({ title: "Warm: Home", body: "Temperatur 22 °C in Home von Di 11:00 bis 12:00, Spitze 11:00." });
    expect(plain(format(alert, { ...german, locale: "fr-FR" }).body)).toBe("Température 22 °C à Home de mar. 11:00 à 12:00, pic à 11:00.");
    expect(format(alert, { ...german, locale: "es-ES" }).body).toBe("Temperatura 22 °C en Home de mar 11:00 a 12:00, máximo a las 11:00.");
  });

  it("formats every window of one alert, at one place or several, with the worst of them", () => {
    const office = { id: "p2", label: "Office", timeZone: "Europe/London" };
    // Tuesday 11:00–12:00 and Wednesday 13:00–15:00 in New York; Wednesday 09:00–10:00 in London.
    const tuesday = "2026-11-24T16:00:00.000Z/2026-11-24T17:00:00.000Z";
    const wednesday = "2026-11-25T18:00:00.000Z/2026-11-25T20:00:00.000Z";
    const london = "2026-11-25T09:00:00.000Z/2026-11-25T10:00:00.000Z";
    // The worst window (its peak) is the content's own, as for one window.
    const peak = { from: "2026-11-25T18:00:00.000Z", to: "2026-11-25T20:00:00.000Z", peakAt: "2026-11-25T19:00:00.000Z", peakValue: 24.2 };
    const onePlace: MessageContent = { ...alert, version: 3, ...peak, alertPlaces: [{ place: home, windows: [tuesday, wednesday] }] };
    expect(format(onePlace, german)).toEqual({
      title: "Warm: Home",
      body: "Temperatur 24 °C in Home: Di 11:00–12:00, Mi 13:00–15:00; Spitze Mi 14:00.",
    });
    expect(format(onePlace, american).body).toBe(
      "Temperature 76 °F in Home: Tue 11:00 AM–12:00 PM, Wed 1:00 PM–3:00 PM; peak Wed 2:00 PM.",
    );
    const twoPlaces: MessageContent = {
      ...onePlace,
      alertPlaces: [
        { place: home, windows: [tuesday, wednesday] },
        { place: office, windows: [london] },
      ],
    };
    expect(format(twoPlaces, american)).toEqual({
      title: "Warm: Home and Office",
      body: "Temperature 76 °F in Home (Tue 11:00 AM–12:00 PM, Wed 1:00 PM–3:00 PM) and Office (Wed 9:00 AM–10:00 AM GMT+0); peak Wed 2:00 PM in Home.",
    });
    expect(plain(format(twoPlaces, { ...german, locale: "fr-FR" }).title)).toBe("Warm : Home et Office");
    expect(format(twoPlaces, { ...german, locale: "es-ES" }).body).toBe(
      "Temperatura 24 °C en Home (mar 11:00–12:00, mié 13:00–15:00) y Office (mié 09:00–10:00 GMT+0); máximo el mié 14:00 en Home.",
    );
  });

  it("the server's fast texts format it as i18next does", () => {
    expect(formatMessage(alert, german, (key, values) => botTexts("DE_DE")(key as never, values))).toEqual(format(alert, german));
  });

  it("names both days of a window over two days, and the peak's day when it is not the first", () => {
    const overnight = { ...alert, from: "2026-11-25T03:00:00.000Z", to: "2026-11-25T07:00:00.000Z", peakAt: "2026-11-25T06:00:00.000Z" };
    expect(format(overnight, american).body).toBe("Temperature 71 °F in Home from Tue 10:00 PM to Wed 2:00 AM, peak Wed 1:00 AM.");
    // A window that ends at midnight ends on its own day.
    const toMidnight = { ...alert, from: "2026-11-25T03:00:00.000Z", to: "2026-11-25T05:00:00.000Z", peakAt: "2026-11-25T03:00:00.000Z" };
    expect(format(toMidnight, german).body).toBe("Temperatur 22 °C in Home von Di 22:00 bis 00:00, Spitze 22:00.");
  });

  it("gives times in the place's zone, labelled with the zone only when the reader's zone differs", () => {
    const inBerlin = { ...german, timeZone: "Europe/Berlin" };
    expect(format(alert, inBerlin).body).toBe("Temperatur 22 °C in Home von Di 11:00 bis 12:00 GMT-5, Spitze 11:00.");
    expect(format(alert, { ...american, timeZone: "Europe/Berlin" }).body).toContain("to 12:00 PM GMT-5, peak");
    expect(format(alert, american).body).not.toContain("GMT");
    // Another zone name with the same clock is no different for the reader.
    expect(format(alert, { ...american, timeZone: "America/Toronto" }).body).not.toContain("GMT");
  });

  it("formats conditions, precipitation in inches and wind in mph", () => {
    const storm = { ...alert, metric: "CONDITION" as const, condition: "THUNDERSTORM" as const, peakValue: 95, threshold: null };
    expect(format(storm, american).body).toBe("Thunderstorm in Home from Tue 11:00 AM to 12:00 PM.");
    expect(format(storm, german).body).toBe("Gewitter in Home von Di 11:00 bis 12:00.");
    expect(format({ ...alert, metric: "PRECIPITATION", peakValue: 12.7 }, american).body).toContain("Precipitation 0.5 in in Home");
    expect(format({ ...alert, metric: "WIND_GUSTS", peakValue: 80.47 }, american).body).toContain("Gusts 50 mph");
    expect(format({ ...alert, metric: "WIND_GUSTS", peakValue: 80.47 }, german).body).toContain("Böen 80 km/h");
  });

  it("formats a shower starting soon with its wettest quarter hour, in the reader's language and units", () => {
    const shower = { ...alert, metric: "RAIN_SOON" as const, threshold: 30, to: "2026-11-24T16:45:00.000Z", peakValue: 1.27 };
    expect(format(shower, german).body).toBe("Bald Regen in Home: von Di 11:00 bis 11:45, bis 1,3 mm pro Viertelstunde.");
    expect(format(shower, american).body).toBe("Rain soon in Home: from Tue 11:00 AM to 11:45 AM, up to 0.05 in per quarter hour.");
  });

  it("writes content a browser of the build before can format as version 1, the newer metrics as version 2 and alerts of several windows as version 3, which older builds leave to the stored text", () => {
    expect(["WIND_GUSTS", "CONDITION", null].map((metric) => contentVersionFor(metric))).toEqual([1, 1, 1]);
    expect(["RAIN_SOON", "AQI"].map((metric) => contentVersionFor(metric))).toEqual([2, 2]);
    const window = `${alert.from}/${alert.to}`;
    expect(contentVersionFor("WIND_GUSTS", [{ place: alert.place!, windows: [window] }])).toBe(1);
    expect(contentVersionFor("WIND_GUSTS", [{ place: alert.place!, windows: [window, window] }])).toBe(3);
    expect(
      contentVersionFor("AQI", [
        { place: alert.place!, windows: [window] },
        { place: alert.place!, windows: [window] },
      ]),
    ).toBe(3);
    // This build formats them all; a build before it accepted exactly its own versions (1 and 2).
    expect(parseMessageContent(JSON.stringify({ ...alert, version: 1 }))).not.toBeNull();
    expect(parseMessageContent(JSON.stringify({ ...alert, metric: "RAIN_SOON", version: 2 }))).not.toBeNull();
    expect(parseMessageContent(JSON.stringify({ ...alert, version: 3 }))).not.toBeNull();
    // Version 4 is official warnings' (warning-format.test.ts); a later one is left to the stored text.
    expect(parseMessageContent(JSON.stringify({ ...alert, version: 4 }))).not.toBeNull();
    expect(parseMessageContent(JSON.stringify({ ...alert, version: 5 }))).toBeNull();
  });

  it("names an AQI figure's scale, in the reader's language, whatever their scale is now", () => {
    const smoke = { ...alert, metric: "AQI" as const, aqiScale: "EUROPEAN" as const, peakValue: 90, threshold: 60, version: 2 };
    expect(format(smoke, german).body).toBe("Europäischer LQI 90 in Home von Di 11:00 bis 12:00, Spitze 11:00.");
    expect(format(smoke, american).body).toBe("European AQI 90 in Home from Tue 11:00 AM to 12:00 PM, peak 11:00 AM.");
  });

  it("formats an all-clear", () => {
    const clear: MessageContent = {
      version: 1,
      kind: "ALL_CLEAR",
      place: home,
      ruleName: "Warm",
      metric: "TEMPERATURE",
      comparator: "AT_LEAST",
      threshold: 20,
    };
    expect(format(clear, american)).toEqual({ title: "All clear: Home", body: "Warm: the forecast for Home is back within your limit." });
    expect(format(clear, german).title).toBe("Entwarnung: Home");
  });

  it("formats a briefing's figures per place, in the reader's units and clock", () => {
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
    expect(format(briefing, american)).toEqual({
      title: "Morning · Tomorrow",
      body: "Home: rain, 50 °F to 59 °F, rain from 2:00 PM (80%), gusts up to 31 mph.\nCabin: clear, 28 °F to 37 °F, dry.\nFar: no forecast available right now",
    });
    expect(plain(format(briefing, german).body)).toBe(
      "Home: Regen, 10 °C bis 15 °C, Regen ab 14:00 (80 %), Böen bis 50 km/h.\nCabin: klar, -2 °C bis 3 °C, trocken.\nFar: gerade keine Vorhersage verfügbar",
    );
    expect(format(briefing, { ...german, timeZone: "Europe/Berlin" }).body).toContain("Regen ab 14:00 GMT-5 (80");
    expect(format({ ...briefing, places: [] }, german)).toEqual({
      title: "Morning · Morgen",
      body: "Dieser Wetterbericht hat noch keine Orte.",
    });
  });
});
