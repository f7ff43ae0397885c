import { readFile } from "node:fs/promises";
import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { expect, gotoHydrated, pinClock, test } from "./fixtures";
import { E2eSecurityLogInDocument, E2eSecurityMeDocument } from "./support/documents.generated";
import { accountWithPlace, apiAs, operationBody, signInBrowser, uniqueEmail } from "./support/graphql";

const PASSWORD = "a sturdy passphrase";
const NEW_PASSWORD = "a brand new passphrase";
const FIREFOX_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

/** The toast saying `text` (others may still be showing). */
const toast = (page: Page, text: string | RegExp) =>
  page.getByRole("region", { name: "Notifications (F8)" }).getByRole("listitem").filter({ hasText: text });
const sessionsList = (page: Page) => page.getByRole("region", { name: "Where you are signed in" }).getByRole("listitem");

/** A new account, signed up over the API (as another client would). */
async function newAccount(request: APIRequestContext, baseURL: string, tag: string) {
  const email = uniqueEmail(tag);
  await apiAs(
    request,
    baseURL,
    null,
  )(`mutation ($email: String!, $password: String!) { signUp(email: $email, password: $password) { token } }`, {
    email,
    password: PASSWORD,
  });
  return email;
}

/** Logs in with the settings page's form, as a person would: the session is this browser's. */
async function logInWithForm(page: Page, email: string, password = PASSWORD) {
  await gotoHydrated(page, "/settings");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/$/, { timeout: 15_000 });
}

/** Another browser (a context of its own: its own cookies), on the run's clock. */
async function otherBrowser(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  await pinClock(context);
  return { context, page: await context.newPage() };
}

/** The signed-in account's email as the API answers for `token` (null once the session has ended). */
async function emailFor(request: APIRequestContext, token: string): Promise<string | null> {
  const response = await request.post("/graphql", {
    data: operationBody(E2eSecurityMeDocument),
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await response.json()) as { data: { me: { email: string } | null } }).data.me?.email ?? null;
}

test.describe("account security", () => {
  test("changing the password logs out the other browser and keeps this one; a wrong current password changes nothing", async ({
    page,
    browser,
    baseURL,
    request,
    consoleGuard,
  }) => {
    test.setTimeout(90_000);
    consoleGuard.allow(/status of 400/);
    const email = await newAccount(request, baseURL!, "password");
    await logInWithForm(page, email);
    const other = await otherBrowser(browser, baseURL!);
    await logInWithForm(other.page, email);

    await gotoHydrated(page, "/settings");
    // With the keyboard: the fields in order, Enter submits.
    await page.getByLabel("Current password").fill("not the password");
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("New password")).toBeFocused();
    await page.keyboard.type(NEW_PASSWORD);
    await page.keyboard.press("Enter");
    await expect(page.getByText("This is not your current password.")).toBeVisible();
    await expect(page.getByLabel("Current password")).toHaveAttribute("aria-invalid", "true");
    await other.page.goto("/settings");
    await expect(other.page.getByText(`Signed in as ${email}`)).toBeVisible();

    await page.getByLabel("Current password").fill(PASSWORD);
    await page.getByLabel("New password").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(toast(page, /Your password is changed\. Every other session is logged out\./)).toBeVisible();
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
    await expect(sessionsList(page)).toHaveCount(1);

    // The other browser's session has ended: its next page is a visitor's.
    await other.page.goto("/settings");
    await expect(other.page.getByRole("button", { name: "Log in" })).toBeVisible();
    await logInWithForm(other.page, email, NEW_PASSWORD);
    await other.context.close();
  });

  test("lists where the account is signed in, and logs out one session, then every other", async ({ page, browser, baseURL, request }) => {
    test.setTimeout(90_000);
    const email = await newAccount(request, baseURL!, "sessions");
    // A session from another kind of browser, over the API.
    const firefox = await request.post("/graphql", {
      data: operationBody(E2eSecurityLogInDocument, { email, password: PASSWORD }),
      headers: { "user-agent": FIREFOX_LINUX },
    });
    const firefoxToken = ((await firefox.json()) as { data: { logIn: { token: string } } }).data.logIn.token;
    const other = await otherBrowser(browser, baseURL!);
    await logInWithForm(other.page, email);
    await logInWithForm(page, email);

    await gotoHydrated(page, "/settings");
    // The sign-up's session, Firefox's, the other browser's and this one.
    await expect(sessionsList(page)).toHaveCount(4);
    const current = sessionsList(page).filter({ hasText: "This device" });
    await expect(current).toHaveCount(1);
    await expect(current).toContainText(/Chrom.* \d+ on Linux · Computer/);
    await expect(current.getByRole("button", { name: "Log out" })).toHaveCount(0);
    const firefoxRow = sessionsList(page).filter({ hasText: "Firefox 128 on Linux" });
    await expect(firefoxRow).toContainText("Last active");

    await firefoxRow.getByRole("button", { name: "Log out" }).click();
    await expect(toast(page, /That session is logged out\./)).toBeVisible();
    await expect(sessionsList(page)).toHaveCount(3);
    await expect(sessionsList(page).filter({ hasText: "Firefox" })).toHaveCount(0);
    expect(await emailFor(request, firefoxToken)).toBeNull();
    await other.page.goto("/settings");
    await expect(other.page.getByText(`Signed in as ${email}`)).toBeVisible();

    // From the keyboard.
    await page.getByRole("button", { name: "Log out everywhere else" }).focus();
    await page.keyboard.press("Enter");
    await expect(toast(page, /Other sessions logged out: 2\./)).toBeVisible();
    await expect(sessionsList(page)).toHaveCount(1);
    await expect(page.getByText("You are not signed in anywhere else.")).toBeVisible();
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
    await other.page.goto("/settings");
    await expect(other.page.getByRole("button", { name: "Log in" })).toBeVisible();
    await other.context.close();
  });

  test("downloads everything the account holds as one JSON file, for its own session only", async ({ page, context, request, baseURL }) => {
    const account = await accountWithPlace(request, baseURL!, "Export Bay", context);
    await account.sendBriefing();
    await gotoHydrated(page, "/settings");

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download my data" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^weatherbot-export-\d{4}-\d{2}-\d{2}\.json$/);
    const file = JSON.parse(await readFile((await download.path())!, "utf8"));
    expect(file).toMatchObject({
      format: "weatherbot-account-export",
      version: 1,
      account: { email: account.email },
      places: [{ id: account.placeId, label: "Export Bay" }],
      briefings: [{ name: "Export Bay morning", places: [{ id: account.placeId }] }],
      pushSubscriptions: [],
      messages: [{ kind: "BRIEFING" }],
    });
    expect(file.settings).toMatchObject({ timeZone: "Europe/Berlin" });

    // The answer's headers, with this browser's cookie; without one there is nothing to download.
    const answer = await context.request.get("/resources/account-export");
    expect(answer.status()).toBe(200);
    expect(answer.headers()["content-disposition"]).toMatch(/^attachment; filename="weatherbot-export-/);
    expect(answer.headers()["cache-control"]).toBe("no-store");
    expect(((await answer.json()) as { account: { email: string } }).account.email).toBe(account.email);
    const anonymous = await request.get(`${baseURL}/resources/account-export`);
    expect(anonymous.status()).toBe(401);
    expect(await anonymous.text()).toBe("Log in to download your data.");
  });

  test("deleting the account needs its password; then it is gone and the email can sign up again", async ({
    page,
    context,
    request,
    baseURL,
    consoleGuard,
  }) => {
    test.setTimeout(90_000);
    consoleGuard.allow(/status of 400/);
    const account = await accountWithPlace(request, baseURL!, "Farewell Point", context);
    await gotoHydrated(page, "/settings");

    await page.getByRole("button", { name: "Delete my account" }).click();
    await expect(page.getByText("Enter your password.")).toBeVisible();
    await page.getByLabel("Your password").fill("not the password");
    await page.getByRole("button", { name: "Delete my account" }).click();
    await expect(page.getByText("This is not your current password.")).toBeVisible();
    expect(await emailFor(request, account.token)).toBe(account.email);

    await page.getByLabel("Your password").fill(account.password);
    await page.getByRole("button", { name: "Delete my account" }).click();
    await expect(toast(page, /Your account is deleted\./)).toBeVisible();
    await expect(page.getByRole("button", { name: "Log in" })).toBeVisible();
    expect((await context.cookies()).find((cookie) => cookie.name === "weatherbot_session")).toBeUndefined();
    expect(await emailFor(request, account.token)).toBeNull();

    // The same address, a new account.
    await page.getByRole("link", { name: "New here? Create an account" }).click();
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(toast(page, /Your account is ready\./)).toBeVisible({ timeout: 15_000 });
    await gotoHydrated(page, "/settings");
    await expect(page.getByText(`Signed in as ${account.email}`)).toBeVisible();
    await expect(page.getByText("Farewell Point")).toHaveCount(0);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the forms change the password, log other sessions out and delete the account", async ({
      page,
      context,
      request,
      baseURL,
      consoleGuard,
    }) => {
      test.setTimeout(90_000);
      consoleGuard.allow(/status of 400/);
      const account = await accountWithPlace(request, baseURL!, "Plain Form Bay", context);
      const other = await apiAs(request, baseURL!, null)(E2eSecurityLogInDocument, { email: account.email, password: account.password });
      await page.goto("/settings");
      const post = () => page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/settings");

      await page.getByLabel("Current password").fill("not the password");
      await page.getByLabel("New password").fill(NEW_PASSWORD);
      const [refused] = await Promise.all([post(), page.getByRole("button", { name: "Change password" }).click()]);
      expect(refused.status()).toBe(400);
      await expect(page.getByText("This is not your current password.")).toBeVisible();
      await expect(page.getByLabel("Current password")).toHaveValue("");

      await page.getByLabel("Current password").fill(account.password);
      await page.getByLabel("New password").fill(NEW_PASSWORD);
      const [changed] = await Promise.all([post(), page.getByRole("button", { name: "Change password" }).click()]);
      expect(changed.status()).toBe(303);
      await expect(page.getByText(`Signed in as ${account.email}`)).toBeVisible();
      expect(await emailFor(request, other.logIn.token)).toBeNull();

      await apiAs(request, baseURL!, null)(E2eSecurityLogInDocument, { email: account.email, password: NEW_PASSWORD });
      await page.goto("/settings");
      await expect(sessionsList(page)).toHaveCount(2);
      const [endedOthers] = await Promise.all([post(), page.getByRole("button", { name: "Log out everywhere else" }).click()]);
      expect(endedOthers.status()).toBe(303);
      await expect(sessionsList(page)).toHaveCount(1);

      await page.getByLabel("Your password").fill(NEW_PASSWORD);
      const [deleted] = await Promise.all([post(), page.getByRole("button", { name: "Delete my account" }).click()]);
      expect(deleted.status()).toBe(303);
      await expect(page.getByRole("button", { name: "Log in" })).toBeVisible();
      expect(await emailFor(request, account.token)).toBeNull();
    });
  });

  test("speaks the page's language: German headings, buttons and problems", async ({ browser, baseURL, request }) => {
    const account = await accountWithPlace(request, baseURL!, "Sprachhafen");
    const context = await browser.newContext({ baseURL, javaScriptEnabled: false, locale: "de-DE" });
    await signInBrowser(context, baseURL!, account.token);
    const page = await context.newPage();
    await page.goto("/settings");
    for (const heading of ["Passwort ändern", "Wo du angemeldet bist", "Deine Daten", "Konto löschen"]) {
      await expect(page.getByRole("heading", { name: heading, level: 3 })).toBeVisible();
    }
    await expect(page.getByRole("link", { name: "Meine Daten herunterladen" })).toBeVisible();
    await page.getByLabel("Aktuelles Passwort").fill("nicht das Passwort");
    await page.getByLabel("Neues Passwort").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Passwort ändern" }).click();
    await expect(page.getByText("Das ist nicht dein aktuelles Passwort.")).toBeVisible();
    await page.getByRole("button", { name: "Mein Konto löschen" }).click();
    await expect(page.getByText("Gib dein Passwort ein.")).toBeVisible();
    await context.close();
  });

  for (const mode of ["light", "dark"] as const) {
    test(`the account's screens have no serious or critical accessibility violations (${mode})`, async ({
      page,
      context,
      request,
      baseURL,
      consoleGuard,
    }) => {
      consoleGuard.allow(/status of 400/);
      await page.emulateMedia({ colorScheme: mode });
      const account = await accountWithPlace(request, baseURL!, "Axe Sound", context);
      await apiAs(request, baseURL!, null)(E2eSecurityLogInDocument, { email: account.email, password: account.password });
      await gotoHydrated(page, "/settings");
      const check = async (label: string) => {
        const results = await new AxeBuilder({ page }).include("#account").analyze();
        const serious = results.violations
          .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
          .map((violation) => `${label}: ${violation.id} ${violation.nodes.map((node) => node.target.join(" ")).join(" | ")}`);
        expect(serious).toEqual([]);
      };
      await expect(sessionsList(page)).toHaveCount(2);
      await check("account section");
      // With every form's problems shown.
      const part = (name: string) => page.getByRole("region", { name });
      await page.getByRole("button", { name: "Change password" }).click();
      await expect(part("Change password").getByText("Enter your password.")).toHaveCount(2);
      await page.getByRole("button", { name: "Delete my account" }).click();
      await expect(part("Delete account").getByText("Enter your password.")).toBeVisible();
      await expect(part("Change password").getByText("Enter your password.")).toHaveCount(0);
      await check("account section with errors");
    });
  }
});
