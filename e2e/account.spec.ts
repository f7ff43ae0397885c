import type { Page } from "@playwright/test";
import { expect, gotoHydrated, pinClock, test } from "./fixtures";
import { startAppServer } from "./support/app-server";
import { accountWithPlace, operationBody, uniqueEmail } from "./support/graphql";
import { realNow } from "../tests/support/test-clock";
import { E2eAccountMeDocument, E2eAccountSignUpDocument, E2eAccountSpeakGermanDocument } from "./support/documents.generated";
import { waitForOfflineReady } from "./support/pwa";

async function fillAccountForm(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
}

test.describe("account forms", () => {
  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("sign up sets the session cookie with exact attributes; log out clears and revokes it", async ({ page, context, request }) => {
      await page.goto("/settings");
      await page.getByRole("link", { name: "New here? Create an account" }).click();
      const email = uniqueEmail();
      await fillAccountForm(page, email, "a sturdy passphrase");
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/settings"),
        page.getByRole("button", { name: "Create account" }).click(),
      ]);
      expect(response.status()).toBe(303);
      const setCookies = (await response.headersArray())
        .filter(({ name }) => name.toLowerCase() === "set-cookie")
        .map(({ value }) => value);
      expect(setCookies.filter((value) => value.startsWith("weatherbot_session="))).toEqual([
        expect.stringMatching(/^weatherbot_session=[^;]+; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax$/),
      ]);
      // Signed in, the weather is on Home; the account (and logging out) is in Settings.
      await expect(page).toHaveURL(/\/$/, { timeout: 15_000 }); // scrypt and a page load, on a busy machine
      await page.goto("/settings");
      await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();

      const cookie = (await context.cookies()).find((c) => c.name === "weatherbot_session");
      expect(cookie).toMatchObject({ path: "/", httpOnly: true, sameSite: "Lax", secure: false });
      // Chromium keeps cookies on its real clock, not the run's pinned one.
      const days = (cookie!.expires - realNow() / 1000) / 86_400;
      expect(days).toBeGreaterThan(6.99);
      expect(days).toBeLessThanOrEqual(7);
      const token = cookie!.value;

      const [logOut] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/settings"),
        page.getByRole("button", { name: "Log out" }).click(),
      ]);
      expect(logOut.status()).toBe(303);
      await expect(page.getByRole("button", { name: "Log in" })).toBeVisible();
      expect((await context.cookies()).find((c) => c.name === "weatherbot_session")).toBeUndefined();
      const me = await request.post("/graphql", {
        data: operationBody(E2eAccountMeDocument),
        headers: { authorization: `Bearer ${token}` },
      });
      expect(await me.json()).toEqual({ data: { me: null } });
    });

    test("a failed log-in answers 400 with a field error and keeps the email, never the password", async ({ page, consoleGuard }) => {
      consoleGuard.allow(/status of 400/);
      await page.goto("/settings");
      const email = uniqueEmail();
      await fillAccountForm(page, email, "not the password");
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/settings"),
        page.getByRole("button", { name: "Log in" }).click(),
      ]);
      expect(response.status()).toBe(400);
      await expect(page.getByRole("alert")).toHaveText("Email or password is not right.");
      await expect(page.getByLabel("Email")).toHaveValue(email);
      await expect(page.getByLabel("Password")).toHaveValue("");
    });

    test("sign-up problems appear on the right field, in the page's language", async ({ browser, baseURL }) => {
      const context = await browser.newContext({ baseURL, javaScriptEnabled: false, locale: "de-DE" });
      const page = await context.newPage();
      await page.goto("/settings");
      await page.getByRole("link", { name: "Neu hier? Ein Konto anlegen" }).click();
      await page.getByLabel("E-Mail").fill(uniqueEmail());
      await page.getByLabel("Passwort").fill("password");
      await page.getByRole("button", { name: "Konto erstellen" }).click();
      await expect(page.getByLabel("Passwort")).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByRole("alert")).toHaveText("Dieses Passwort ist zu verbreitet. Wähle ein anderes.");
      await page.getByLabel("Passwort").fill("        ");
      await page.getByRole("button", { name: "Konto erstellen" }).click();
      await expect(page.getByRole("alert")).toHaveText("Ein Passwort darf nicht nur aus Leerzeichen bestehen.");
      await context.close();
    });
  });

  for (const javaScriptEnabled of [true, false]) {
    test(`sign-up asks for a new password and shows its rules from the start; log-in asks for the current one (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
      browser,
      baseURL,
    }) => {
      const context = await browser.newContext({ baseURL, javaScriptEnabled });
      await pinClock(context);
      const page = await context.newPage();
      if (javaScriptEnabled) await gotoHydrated(page, "/settings");
      else await page.goto("/settings");
      const password = page.getByLabel("Password");
      await expect(password).toHaveAttribute("autocomplete", "current-password");
      await expect(page.getByText(/^At least 8 characters/)).toHaveCount(0);

      await page.getByRole("link", { name: "New here? Create an account" }).click();
      await expect(page.getByRole("button", { name: "Create account" })).toBeVisible();
      await expect(password).toHaveAttribute("autocomplete", "new-password");
      const rules = "At least 8 characters. Not a common password, not only spaces, and not your email address.";
      await expect(page.getByText(rules)).toBeVisible();
      await expect(password).toHaveAccessibleDescription(rules);
      await expect(page.getByRole("button", { name: "Log in" })).toHaveCount(0);

      // A problem is read together with the rules.
      await fillAccountForm(page, uniqueEmail(), "        ");
      await page.getByRole("button", { name: "Create account" }).click();
      await expect(page.getByRole("alert")).toHaveText("A password cannot be only spaces.");
      await expect(password).toHaveAccessibleDescription(`${rules} A password cannot be only spaces.`);
      await expect(password).toHaveAttribute("autocomplete", "new-password");

      await page.getByRole("link", { name: "Already have an account? Log in" }).click();
      await expect(page.getByRole("button", { name: "Log in" })).toBeVisible();
      await expect(password).toHaveAttribute("autocomplete", "current-password");
      await expect(page.getByText(rules)).toHaveCount(0);
      await context.close();
    });
  }

  test("with JavaScript the same forms sign up and confirm with a toast", async ({ page }) => {
    await gotoHydrated(page, "/settings");
    await page.getByRole("link", { name: "New here? Create an account" }).click();
    const email = uniqueEmail();
    await fillAccountForm(page, email, "a sturdy passphrase");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/$/, { timeout: 15_000 }); // scrypt and a page load, on a busy machine
    await expect(page.getByRole("region", { name: "Notifications (F8)" }).getByRole("listitem")).toHaveText(/Your account is ready\./);
    await page.getByRole("link", { name: "Settings" }).click();
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  });

  test("logging in with an address that is not one says so on the field, and the earlier error goes", async ({ page, consoleGuard }) => {
    consoleGuard.allow(/status of 400/);
    await gotoHydrated(page, "/settings");
    await fillAccountForm(page, uniqueEmail(), "not the password");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByRole("alert")).toHaveText("Email or password is not right.");

    await fillAccountForm(page, "not-an-email", "not the password");
    await page.getByRole("button", { name: "Log in" }).click();
    // The one problem there is, where it is: not the last attempt's.
    await expect(page.getByRole("alert")).toHaveText(["Enter a valid email address."]);
    await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Email")).toHaveAccessibleDescription(/Enter a valid email address\./);
  });

  test("the sign-up toast is shown even when the pages cached offline are fetched before the page loads its data", async ({ page }) => {
    // Forces the order seen under load: the page copies taken for the new session (Cache.add)
    // reach the server before the landing page's data request (fetch of *.data) does.
    await page.addInitScript(() => {
      const copies: Promise<unknown>[] = [];
      const add = Cache.prototype.add;
      Cache.prototype.add = function (this: Cache, request: RequestInfo | URL) {
        const copy = add.call(this, request);
        copies.push(copy.catch(() => undefined));
        return copy;
      };
      const fetchNow = window.fetch.bind(window);
      window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = new URL(input instanceof Request ? input.url : String(input), location.href);
        if (url.pathname.endsWith(".data") && (init?.method ?? "GET") === "GET") await Promise.all(copies);
        return fetchNow(input, init);
      };
    });
    await gotoHydrated(page, "/settings");
    await waitForOfflineReady(page);
    await page.getByRole("link", { name: "New here? Create an account" }).click();
    await fillAccountForm(page, uniqueEmail(), "a sturdy passphrase");
    const pageCopy = page.waitForRequest((r) => new URL(r.url()).pathname === "/" && r.resourceType() !== "document");
    await page.getByRole("button", { name: "Create account" }).click();
    await pageCopy;
    await expect(page).toHaveURL(/\/$/, { timeout: 15_000 });
    await expect(page.getByRole("region", { name: "Notifications (F8)" }).getByRole("listitem")).toHaveText(/Your account is ready\./);
  });

  test("logging in brings back the account's language, on this page and the next", async ({ page, context, request, baseURL }) => {
    const account = await accountWithPlace(request, baseURL!, "Zuhause");
    await account.gql(E2eAccountSpeakGermanDocument);
    await gotoHydrated(page, "/settings");
    await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
    await fillAccountForm(page, account.email, account.password);
    await page.getByRole("button", { name: "Log in" }).click();
    // Home, in the account's language (scrypt and a page load, on a busy machine).
    await expect(page.getByRole("heading", { name: "Posteingang" })).toBeVisible({ timeout: 15_000 });
    await expect(page.locator("html")).toHaveAttribute("lang", "de-DE");
    await expect(page.getByRole("region", { name: /^(Notifications|Benachrichtigungen) \(F8\)$/ }).getByRole("listitem")).toHaveText(
      /Willkommen zurück\./,
    );
    expect((await context.cookies()).find((cookie) => cookie.name === "i18n_redirected")?.value).toBe("de-DE");
    await page.getByRole("link", { name: "Einstellungen", exact: true }).click();
    await expect(page.getByText(`Angemeldet als ${account.email}`)).toBeVisible();
  });

  test("the cookie is Secure behind a trusted HTTPS proxy, and the header is ignored otherwise", async () => {
    const trusted = await startAppServer({
      TRUST_PROXY: "loopback",
      OPEN_METEO_FORECAST_URL: process.env.E2E_FAKE_WEATHER_URL!,
      OPEN_METEO_GEOCODING_URL: process.env.E2E_FAKE_WEATHER_URL!,
    });
    const untrusted = await startAppServer({
      OPEN_METEO_FORECAST_URL: process.env.E2E_FAKE_WEATHER_URL!,
      OPEN_METEO_GEOCODING_URL: process.env.E2E_FAKE_WEATHER_URL!,
    });
    try {
      const signUp = (base: string) =>
        fetch(`${base}/settings`, {
          method: "POST",
          redirect: "manual",
          headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-proto": "https" },
          body: new URLSearchParams({ intent: "signup", email: uniqueEmail(), password: "a sturdy passphrase" }),
        });
      const viaProxy = await signUp(trusted.baseURL);
      expect(viaProxy.status).toBe(303);
      expect(viaProxy.headers.getSetCookie().find((c) => c.startsWith("weatherbot_session="))).toMatch(/; Secure/);
      const direct = await signUp(untrusted.baseURL);
      expect(direct.status).toBe(303);
      expect(direct.headers.getSetCookie().find((c) => c.startsWith("weatherbot_session="))).not.toMatch(/Secure/);
    } finally {
      await Promise.all([trusted.stop(), untrusted.stop()]);
    }
  });
});

test.describe("named session middleware", () => {
  test.use({ javaScriptEnabled: false });

  test("`auth` sends a visitor to log in and back; `guest` sends a signed-in user home", async ({ page, request }) => {
    const email = uniqueEmail();
    await request.post("/graphql", { data: operationBody(E2eAccountSignUpDocument, { email, password: "a sturdy passphrase" }) });

    await page.goto("/__test/members");
    await expect(page).toHaveURL(/\/settings\?section=account&redirectTo=%2F__test%2Fmembers$/);
    await expect(page.getByRole("heading", { name: "Guests only" })).toHaveCount(0);
    await fillAccountForm(page, email, "a sturdy passphrase");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page).toHaveURL(/\/__test\/members$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Members only: ${email}`);

    await page.goto("/__test/guests");
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Weather");
  });

  test("`guest` lets a visitor in", async ({ page }) => {
    await page.goto("/__test/guests");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Guests only");
  });
});

test("concurrent server renders for two users never mix their data", async ({ baseURL }) => {
  const cookieFor = async (email: string) => {
    const response = await fetch(`${baseURL}/settings`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "signup", email, password: "a sturdy passphrase" }),
    });
    return response.headers
      .getSetCookie()
      .find((c) => c.startsWith("weatherbot_session="))!
      .split(";")[0]!;
  };
  const alice = uniqueEmail();
  const bob = uniqueEmail();
  const cookies = { [alice]: await cookieFor(alice), [bob]: await cookieFor(bob) };
  const renders = await Promise.all(
    Array.from({ length: 20 }, async (_, i) => {
      const email = i % 2 ? alice : bob;
      const html = await (await fetch(`${baseURL}/settings`, { headers: { cookie: cookies[email]! } })).text();
      return { email, html };
    }),
  );
  for (const { email, html } of renders) {
    expect(html).toContain(`Signed in as ${email}`);
    expect(html).not.toContain(email === alice ? bob : alice);
  }
});
