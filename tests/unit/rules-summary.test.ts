import { describe, expect, it } from "vitest";
import { rulesSummaryBody, rulesSummaryLines } from "~/shared/rules-summary";

const LINES = [
  "Thunderstorm in Paris from Fri 21:00 to 23:00 GMT+2.",
  "Gusts 83 km/h in London (Fri 22:00–00:00, Sat 06:00–07:00 GMT+1) and Reykjavík (Fri 18:00–20:00); peak Fri 22:00 in London.",
  "Temperature -3 °C in Berlin (Sat 03:00–09:00 GMT+2) and Reykjavík (Sat 01:00–07:00); peak Sat 03:00 in Berlin.",
];

describe("the new rules' summary", () => {
  it("gives back the lines it was made of", () => {
    expect(rulesSummaryLines("ALERT", rulesSummaryBody(LINES))).toEqual(LINES);
  });

  it("leaves out empty lines and the spaces around a line", () => {
    expect(rulesSummaryLines("ALERT", `  ${LINES[0]}\n\n${LINES[1]} \n`)).toEqual([LINES[0], LINES[1]]);
  });

  it("is no list for an alert of one line, nor for other kinds of message with several", () => {
    expect(rulesSummaryLines("ALERT", LINES[0]!)).toBeNull();
    expect(rulesSummaryLines("ALERT", `${LINES[0]}\n`)).toBeNull();
    expect(rulesSummaryLines("BRIEFING", rulesSummaryBody(LINES))).toBeNull();
    expect(rulesSummaryLines("WARNING", rulesSummaryBody(LINES))).toBeNull();
  });
});
