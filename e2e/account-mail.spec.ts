import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, gotoHydrated, pinClock, test } from "./fixtures";
import { startAppServer } from "./support/app-server";
import { accountWithPlace, apiAs, signInBrowser, uniqueEmail } from "./support/graphql";
import { linkIn, mailsSoFar, mailsTo } from "./support/mail";
import {
  E2eMailAddPlaceDocument,
  E2eMailBriefingDeliveryDocument,
  E2eMailBriefingEmailedDocument,
  E2eMailMeDocument,
  E2eMailSaveBriefingDocument,
  E2eMailSignUpDocument,
} from "./support/documents.generated";

/*
 * The account's mail in a real Chromium against the built server, its mail caught by the run's
 * loopback SMTP server: a forgotten password reset from the link in the email (by keyboard, and
 * without JavaScript), which ends the account's sessions and works once; and a server without
 * SMTP, which offers none of it and says why.
 */
const PASSWORD = "a sturdy passphrase";
const NEW_PASSWORD = "a brand new passphrase";

async function expectNoSeriousViolations(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${label}: ${violation.id} ${violation.nodes.map((node) => node.target.join(" ")).join(" | ")}`);
  expect(serious).toEqual([]);
}

async function account(request: Parameters<typeof apiAs>[0], baseURL: string, language?: "DE_DE") {
  const email = uniqueEmail("reset");
  const { signUp } = await apiAs(request, baseURL, null)(E2eMailSignUpDocument, { email, password: PASSWORD, language });
  return { email, token: signUp.token };
}

test.describe("a forgotten password", () => {
  test("is reset from the link in the email, by keyboard; the account's sessions end and the link works once", async ({
    page,
    request,
    baseURL,
    consoleGuard,
  }) => {
    consoleGuard.allow(/status of 400/);
    const { email, token } = await account(request, baseURL!);
    await gotoHydrated(page, "/settings");
    const forgot = page.getByRole("link", { name: "Forgot your password?" });
    await forgot.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 1, name: "Reset your password" })).toBeVisible();
    await expectNoSeriousViolations(page, "/forgot-password");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Email").press("Enter");
    await expect(page.getByRole("status")).toHaveText(
      `If an account uses ${email}, a link to choose a new password is on its way to it. The link works once, within 30 minutes.`,
    );

    const [mail] = await mailsTo(email);
    expect(mail!.subject).toBe("Reset your Weatherbot password");
    expect(mail!.headers.from).toBe("Weatherbot <bot@weatherbot.test>");
    const link = linkIn(mail!, "reset-password");
    expect(link.startsWith(`${baseURL}/reset-password?token=`)).toBe(true);

    await gotoHydrated(page, link);
    await expect(page.getByRole("heading", { level: 1, name: "Choose a new password" })).toBeVisible();
    await expectNoSeriousViolations(page, "/reset-password");
    await page.getByLabel("New password").fill(NEW_PASSWORD);
    await page.getByLabel("New password").press("Enter");
    await expect(page).toHaveURL(/\/settings\?section=account$/);
    await expect(page.getByRole("region", { name: "Notifications (F8)" }).getByRole("listitem")).toHaveText(
      /Your password is changed\. Log in with the new one\./,
    );
    // The session the account had before is over.
    expect(await apiAs(request, baseURL!, token)(E2eMailMeDocument)).toEqual({ me: null });

    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page).toHaveURL(/\/$/, { timeout: 15_000 });

    // The same link again: refused, with the way to a new one.
    await gotoHydrated(page, link);
    await page.getByLabel("New password").fill("yet another passphrase");
    await page.getByRole("button", { name: "Save the new password" }).click();
    const refusal = page.getByRole("alert");
    await expect(refusal).toContainText("This link was used already. Ask for a new one.");
    await expect(refusal.getByRole("link", { name: "Ask for a new link" })).toHaveAttribute("href", "/forgot-password");
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the request and the new password work as plain forms, in the account's language", async ({
      page,
      request,
      baseURL,
      consoleGuard,
    }) => {
      // The weak password's answer is a 400 page.
      consoleGuard.allow(/status of 400/);
      const { email } = await account(request, baseURL!, "DE_DE");
      await page.goto("/forgot-password");
      await page.getByLabel("Email").fill(email);
      await page.getByRole("button", { name: "Send the link" }).click();
      await expect(page.getByRole("status")).toContainText(`If an account uses ${email}`);
      const [mail] = await mailsTo(email);
      expect(mail!.subject).toBe("Dein Weatherbot-Passwort zurücksetzen");

      await page.goto(linkIn(mail!, "reset-password"));
      await page.getByLabel("New password").fill("short");
      await page.getByRole("button", { name: "Save the new password" }).click();
      await expect(page.getByText("Use at least 8 characters.")).toBeVisible();
      await page.getByLabel("New password").fill(NEW_PASSWORD);
      await page.getByRole("button", { name: "Save the new password" }).click();
      await expect(page).toHaveURL(/\/settings\?section=account$/);
      expect(await apiAs(request, baseURL!, null)(`mutation { logIn(email: "${email}", password: "${NEW_PASSWORD}") { token } }`)).toEqual({
        logIn: { token: expect.any(String) },
      });
    });
  });
});

test.describe("changing the email address", () => {
  test("is confirmed from the link sent to the new address; the old address works until then", async ({
    page,
    context,
    request,
    baseURL,
    consoleGuard,
  }) => {
    consoleGuard.allow(/status of 400/);
    const { email, token } = await account(request, baseURL!);
    const other = await account(request, baseURL!);
    await signInBrowser(context, baseURL!, token);
    await gotoHydrated(page, "/settings?section=account");
    await expect(page.getByText(`Your address is ${email}.`)).toBeVisible();
    await expectNoSeriousViolations(page, "/settings signed in");

    // Bad input first: each said on the field, nothing sent.
    const field = page.getByLabel("New email address");
    await field.fill("not an address");
    await field.press("Enter");
    await expect(page.getByText("Enter a valid email address.")).toBeVisible();
    await field.fill(other.email);
    await field.press("Enter");
    await expect(page.getByText("Another account uses this address.")).toBeVisible();
    await expect(field).toHaveAttribute("aria-invalid", "true");

    const next = uniqueEmail("moved");
    await field.fill(next);
    await field.press("Enter");
    await expect(page.getByRole("status")).toHaveText(
      `A link is on its way to ${next}. Your address stays ${email} until you follow it, within 24 hours.`,
    );
    const [mail] = await mailsTo(next);
    expect(mail!.subject).toBe("Confirm your new Weatherbot address");
    expect(await mailsSoFar(email)).toEqual([]);
    const login = (address: string) =>
      apiAs(
        request,
        baseURL!,
        null,
      )(`mutation($e: String!) { logIn(email: $e, password: "${PASSWORD}") { token } }`, { e: address }).then(
        () => "in",
        () => "refused",
      );
    expect([await login(email), await login(next)]).toEqual(["in", "refused"]);

    // Opening the link changes nothing: the button does.
    await gotoHydrated(page, linkIn(mail!, "confirm-email"));
    await expect(page.getByRole("heading", { level: 1, name: "Confirm your new email address" })).toBeVisible();
    await expectNoSeriousViolations(page, "/confirm-email");
    expect(await apiAs(request, baseURL!, token)(E2eMailMeDocument)).toEqual({ me: { email } });
    await page.getByRole("button", { name: "Confirm the new address" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("status")).toHaveText(`Your email address is now ${next}. Log in with it from now on.`);
    expect(await apiAs(request, baseURL!, token)(E2eMailMeDocument)).toEqual({ me: { email: next } });
    expect([await login(email), await login(next)]).toEqual(["refused", "in"]);

    // Used once.
    await gotoHydrated(page, linkIn(mail!, "confirm-email"));
    await page.getByRole("button", { name: "Confirm the new address" }).click();
    await expect(page.getByRole("alert")).toContainText("This link was used already. Ask for a new one.");
    await expect(page.getByRole("alert").getByRole("link", { name: "Change your address again in Settings" })).toBeVisible();
  });
});

test.describe("changing the email address without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the request and the confirmation work as plain forms", async ({ page, context, request, baseURL }) => {
    const { email, token } = await account(request, baseURL!);
    await signInBrowser(context, baseURL!, token);
    await page.goto("/settings?section=account");
    const next = uniqueEmail("plain");
    await page.getByLabel("New email address").fill(next);
    await page.getByRole("button", { name: "Send the confirmation link" }).click();
    await expect(page.getByRole("status")).toContainText(`Your address stays ${email}`);
    const [mail] = await mailsTo(next);
    await page.goto(linkIn(mail!, "confirm-email"));
    await page.getByRole("button", { name: "Confirm the new address" }).click();
    await expect(page.getByRole("status")).toHaveText(`Your email address is now ${next}. Log in with it from now on.`);
    await page.goto("/settings?section=account");
    await expect(page.getByText(`Signed in as ${next}`)).toBeVisible();
  });
});

test("a briefing set to arrive by email is mailed, and its unsubscribe link turns that off: the page, and one-click", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  const account = await accountWithPlace(request, baseURL!, "Mail Bay", context);
  await gotoHydrated(page, "/settings?section=briefings");
  const section = page.getByRole("region", { name: "Briefings" });
  const row = section.getByRole("listitem").filter({ hasText: "Mail Bay morning" });
  await row.getByRole("button", { name: "Edit Mail Bay morning" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit briefing" });
  const delivery = dialog.getByRole("group", { name: "Delivery" });
  await expect(delivery.getByRole("checkbox", { name: "A push notification" })).toBeChecked();
  const byEmail = delivery.getByRole("checkbox", { name: "An email" });
  await expect(byEmail).not.toBeChecked();
  await byEmail.focus();
  await page.keyboard.press("Space");
  await expect(byEmail).toBeChecked();
  const axe = await new AxeBuilder({ page }).include("dialog").analyze();
  expect(axe.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical")).toEqual([]);
  await dialog.getByRole("button", { name: "Save briefing" }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText("Also by email");

  await row.getByRole("button", { name: "Send a test briefing now" }).click();
  const [mail] = await mailsTo(account.email);
  expect(mail!.subject).toBe("Mail Bay morning · Today");
  expect(mail!.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
  const link = /^<(.+)>$/.exec(mail!.headers["list-unsubscribe"] ?? "")![1]!;
  expect(link.startsWith(`${baseURL}/unsubscribe?token=`)).toBe(true);
  expect(mail!.text).toContain(`Stop emailing this briefing: ${link}`);

  // The page asks first (opening a link changes nothing), then stops the emails.
  const visitor = await context.browser()!.newContext({ baseURL });
  await pinClock(visitor);
  const stranger = await visitor.newPage();
  await gotoHydrated(stranger, link);
  await expect(stranger.getByText("Stop emailing the briefing “Mail Bay morning”? It keeps arriving in your inbox.")).toBeVisible();
  await expectNoSeriousViolations(stranger, "/unsubscribe");
  expect((await account.gql(E2eMailBriefingDeliveryDocument)).briefings[0]!.delivery).toEqual(["PUSH", "EMAIL"]);
  await stranger.getByRole("button", { name: "Stop the emails" }).click();
  await expect(stranger.getByRole("status")).toContainText("The briefing “Mail Bay morning” is no longer emailed to you.");
  const { briefings } = await account.gql(E2eMailBriefingDeliveryDocument);
  expect(briefings[0]!.delivery).toEqual(["PUSH"]);
  await visitor.close();

  // On again, then a mail service's one-click POST (RFC 8058): from its own servers, with no cookie and no Origin.
  await account.gql(E2eMailBriefingEmailedDocument, {
    id: briefings[0]!.id,
    input: { name: "Mail Bay morning", placeIds: [account.placeId], period: "TODAY", time: "07:00", days: ["MON"], delivery: ["EMAIL"] },
  });
  const oneClick = await fetch(link, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": "Mail-Unsubscribe/1.0" },
    body: "List-Unsubscribe=One-Click",
  });
  expect(oneClick.status).toBe(200);
  expect((await account.gql(E2eMailBriefingDeliveryDocument)).briefings[0]!.delivery).toEqual([]);
});

test("a server without SMTP offers no reset link nor email change, and says why", async ({ browser }) => {
  const server = await startAppServer({
    OPEN_METEO_FORECAST_URL: process.env.E2E_FAKE_WEATHER_URL!,
    OPEN_METEO_GEOCODING_URL: process.env.E2E_FAKE_WEATHER_URL!,
  });
  const context = await browser.newContext({ baseURL: server.baseURL });
  await pinClock(context);
  try {
    const page = await context.newPage();
    await gotoHydrated(page, "/settings");
    await expect(page.getByRole("button", { name: "Log in" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Forgot your password?" })).toHaveCount(0);
    await gotoHydrated(page, "/forgot-password");
    await expect(page.getByText("This server cannot send email, so a password cannot be reset by email here.")).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveCount(0);
    await expectNoSeriousViolations(page, "/forgot-password without SMTP");

    // Signed in, the email change says why it is not offered.
    const { signUp } = await apiAs(page.request, server.baseURL, null)(E2eMailSignUpDocument, { email: uniqueEmail(), password: PASSWORD });
    await signInBrowser(context, server.baseURL, signUp.token);
    await gotoHydrated(page, "/settings?section=account");
    await expect(
      page.getByText(
        "This server cannot send email, so your address cannot be changed here: a new address is confirmed by a link sent to it.",
      ),
    ).toBeVisible();
    await expect(page.getByLabel("New email address")).toHaveCount(0);

    // A briefing cannot be chosen to come by email, and the editor says why.
    const gql = apiAs(page.request, server.baseURL, signUp.token);
    const { addPlace } = await gql(E2eMailAddPlaceDocument);
    await gql(E2eMailSaveBriefingDocument, {
      input: { name: "Quiet morning", placeIds: [addPlace.id], period: "TODAY", time: "07:00", days: ["MON"] },
    });
    await gotoHydrated(page, "/settings?section=briefings");
    await page.getByRole("button", { name: "Edit Quiet morning" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit briefing" });
    await expect(dialog.getByRole("checkbox", { name: "An email" })).toBeDisabled();
    await expect(dialog.getByText("This server cannot send email, so briefings cannot be emailed.")).toBeVisible();
  } finally {
    await context.close();
    await server.stop();
  }
});
