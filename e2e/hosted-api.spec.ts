import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "./fixtures";
import { startAppServer } from "./support/app-server";
import { E2eHostedApiMeDocument } from "./support/documents.generated";
import { operationBody } from "./support/graphql";

test("with GRAPHQL_URL the app uses a hosted API: loaders and the browser's /graphql go there with the bearer", async () => {
  const weather = {
    OPEN_METEO_FORECAST_URL: process.env.E2E_FAKE_WEATHER_URL!,
    OPEN_METEO_GEOCODING_URL: process.env.E2E_FAKE_WEATHER_URL!,
  };
  const hosted = await startAppServer(weather);
  const frontDataDir = mkdtempSync(path.join(tmpdir(), "weatherbot-front-"));
  const front = await startAppServer({ ...weather, GRAPHQL_URL: `${hosted.baseURL}/graphql`, DATA_DIR: frontDataDir });
  try {
    const email = `hosted-${Date.now()}@example.com`;
    // Sign up through the front end's form: its action calls the hosted API.
    const signUp = await fetch(`${front.baseURL}/settings`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "signup", email, password: "a hosted passphrase" }),
    });
    expect(signUp.status).toBe(303);
    const cookie = signUp.headers
      .getSetCookie()
      .find((c) => c.startsWith("weatherbot_session="))!
      .split(";")[0]!;
    const token = cookie.split("=")[1]!;

    // The browser's same-origin /graphql call is forwarded with the cookie's token as bearer.
    const viaFront = await fetch(`${front.baseURL}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie, origin: front.baseURL },
      body: JSON.stringify(operationBody(E2eHostedApiMeDocument)),
    });
    expect(await viaFront.json()).toEqual({ data: { me: { email } } });

    // The account lives in the hosted API, and the front end keeps no database of its own.
    const direct = await fetch(`${hosted.baseURL}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify(operationBody(E2eHostedApiMeDocument)),
    });
    expect(await direct.json()).toEqual({ data: { me: { email } } });
    expect(existsSync(path.join(frontDataDir, "weatherbot.sqlite"))).toBe(false);

    // A page rendered by the front end shows the user, read through the hosted API.
    const page = await (await fetch(`${front.baseURL}/settings`, { headers: { cookie } })).text();
    expect(page).toContain(`Signed in as ${email}`);
  } finally {
    await Promise.all([front.stop(), hosted.stop()]);
    rmSync(frontDataDir, { recursive: true, force: true });
  }
});
