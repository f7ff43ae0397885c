import { describe, expect, it } from "vitest";
import { describeClient } from "~/api/auth/user-agent.server";

describe("a session's client, from its User-Agent", () => {
  it.each([
    [
      "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
      { browser: "Firefox 128", os: "Linux", deviceType: "DESKTOP" },
    ],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
      { browser: "Chrome 126", os: "Windows 10", deviceType: "DESKTOP" },
    ],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
      { browser: "Safari 17", os: "iOS 17", deviceType: "MOBILE" },
    ],
    [
      "Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1",
      { browser: "Safari 16", os: "iOS 16", deviceType: "TABLET" },
    ],
    [
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Mobile Safari/537.36",
      { browser: "Chrome 125", os: "Android 14", deviceType: "MOBILE" },
    ],
  ])("%s", (userAgent, described) => {
    expect(describeClient(userAgent)).toEqual(described);
  });

  it("says nothing it does not know: no User-Agent, or one of no browser", () => {
    expect(describeClient(null)).toEqual({ browser: null, os: null, deviceType: "OTHER" });
    expect(describeClient("")).toEqual({ browser: null, os: null, deviceType: "OTHER" });
    expect(describeClient("curl/8.5.0")).toEqual({ browser: null, os: null, deviceType: "OTHER" });
  });
});
