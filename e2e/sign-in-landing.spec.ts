import type { Page } from "@playwright/test";
import { expect, gotoHydrated, test } from "./fixtures";
import { E2eSignInLandingSignUpDocument } from "./support/documents.generated";
import { operationBody, uniqueEmail } from "./support/graphql";

async function submitAccountForm(page: Page, email: string, button: "Create account" | "Log in") {
  if (button === "Create account") await page.getByRole("link", { name: "New here? Create an account" }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("a sturdy passphrase");
  await page.getByRole("button", { name: button }).click();
}

test("signing up lands on Home, where a new user can look up weather and add a first place", async ({ page }) => {
  await gotoHydrated(page, "/settings");
  await submitAccountForm(page, uniqueEmail("landing"), "Create account");
  await expect(page).toHaveURL(/\/$/, { timeout: 15_000 }); // scrypt and a page load, on a busy machine
  await expect(page.getByRole("heading", { name: "Weather", level: 1 })).toBeVisible();
  await expect(
    page.getByRole("region", { name: "Notifications (F8)" }).getByRole("listitem").filter({ hasText: "Your account is ready." }),
  ).toBeVisible();

  // The weather of any place, right here.
  const search = page.getByRole("combobox", { name: "Search for a place" });
  await search.fill("Zur");
  await page.getByRole("option", { name: /Zurich/ }).click();
  await expect(page.getByRole("article", { name: "Zurich" }).getByTestId("current-temperature")).toBeVisible();

  // And the call to add it.
  await page.getByRole("button", { name: "Add a place" }).first().click();
  await expect(page.getByRole("dialog", { name: "Add a place" })).toBeVisible();
});

test("logging in lands on Home; a safe redirectTo is still followed", async ({ page, request }) => {
  const email = uniqueEmail("landing");
  await request.post("/graphql", { data: operationBody(E2eSignInLandingSignUpDocument, { email, password: "a sturdy passphrase" }) });
  await gotoHydrated(page, "/settings");
  await submitAccountForm(page, email, "Log in");
  await expect(page).toHaveURL(/\/$/, { timeout: 15_000 }); // scrypt and a page load, on a busy machine
  await expect(page.getByRole("heading", { name: "Weather", level: 1 })).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("POST /settings answers 303 to / for sign-up and log-in, to redirectTo when one is given", async ({ baseURL }) => {
    const post = (fields: Record<string, string>) =>
      fetch(`${baseURL}/settings`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ password: "a sturdy passphrase", ...fields }),
      });
    const email = uniqueEmail("landing");
    const signUp = await post({ intent: "signup", email });
    expect(signUp.status).toBe(303);
    expect(signUp.headers.get("location")).toBe("/");
    expect(signUp.headers.getSetCookie().some((cookie) => cookie.startsWith("weatherbot_session="))).toBe(true);
    const logIn = await post({ intent: "login", email });
    expect(logIn.status).toBe(303);
    expect(logIn.headers.get("location")).toBe("/");
    const back = await post({ intent: "login", email, redirectTo: "/settings?section=language" });
    expect(back.headers.get("location")).toBe("/settings?section=language");
    const unsafe = await post({ intent: "login", email, redirectTo: "//evil.example/" });
    expect(unsafe.headers.get("location")).toBe("/");
  });
});
