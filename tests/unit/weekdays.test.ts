import { describe, expect, it } from "vitest";
import { WEEKDAYS } from "~/shared/enum-values";
import { weekdayList } from "~/lib/weekdays";

describe("a schedule's days", () => {
  it("are the words for every day when all seven are chosen, in any order", () => {
    expect(weekdayList([...WEEKDAYS], "en-US", "Every day")).toBe("Every day");
    expect(weekdayList([...WEEKDAYS].reverse(), "fr-FR", "Tous les jours")).toBe("Tous les jours");
  });

  it("are named in the week's order otherwise, as the locale lists them", () => {
    expect(weekdayList(["FRI", "MON", "WED"], "en-US", "Every day")).toBe("Mon, Wed, Fri");
    expect(weekdayList(["MON", "TUE", "WED", "THU", "FRI", "SAT"], "de-DE", "Jeden Tag")).toBe("Mo, Di, Mi, Do, Fr und Sa");
  });
});
