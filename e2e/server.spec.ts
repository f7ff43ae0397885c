import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import { expect, gotoHydrated, test } from "./fixtures";
import { ROOT, SERVER_ENTRY, startAppServer } from "./support/app-server";
import {
  E2eServerLogOutDocument,
  E2eServerMeDocument,
  E2eServerSearchLocationsDocument,
  E2eServerSignUpDocument,
  type E2eServerSignUpMutation,
} from "./support/documents.generated";
import { operationBody, uniqueEmail } from "./support/graphql";

test.describe("the production server", () => {
  test("GET /healthz answers 200 with the build id", async ({ request }) => {
    const response = await request.get("/healthz");
    expect(response.status()).toBe(200);
    const body = (await response.json()) as { status: string; buildId: string; database: unknown };
    expect(body.status).toBe("ok");
    // The suite's server runs on its embedded SQLite database, which answers.
    expect(body.database).toEqual({ dialect: "sqlite", reachable: true });
    expect(body.buildId).toMatch(/^\d{14}-[a-z0-9]+$/);
    const latest = (await (await request.get(`/builds/latest.json?t=${Date.now()}`)).json()) as { id: string };
    expect(latest.id).toBe(body.buildId);
  });

  test("an idle keep-alive connection outlives a proxy's (60 s), so reusing it never meets a reset", async ({ baseURL }) => {
    const { hostname, port } = new URL(baseURL!);
    const socket = connect(Number(port), hostname);
    let closed = false;
    socket.on("close", () => (closed = true));
    let received = "";
    socket.on("data", (chunk) => (received += chunk.toString("latin1")));
    const ask = () => socket.write(`GET /healthz HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: keep-alive\r\n\r\n`);
    const answers = () => received.match(/HTTP\/1\.1 200/g)?.length ?? 0;
    try {
      await new Promise((resolve) => socket.once("connect", resolve));
      ask();
      await expect.poll(answers).toBe(1);
      expect(received).toMatch(/\r\nKeep-Alive: timeout=65\r\n/i);
      // Node's default closes an idle connection after 5 s: a client (or nginx) sending its next
      // request at that moment got ECONNRESET. Six idle seconds later, this one is still open.
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      expect(closed).toBe(false);
      ask();
      await expect.poll(answers).toBe(2);
    } finally {
      socket.destroy();
    }
  });

  test("requests its HTTP parser refuses get their status and one line of plain text, on a page's path and on /graphql", async ({
    baseURL,
  }) => {
    const { hostname, port } = new URL(baseURL!);
    const exchange = (raw: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), hostname, () => socket.end(raw));
        const chunks: Buffer[] = [];
        socket.on("data", (chunk) => chunks.push(chunk));
        socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
        socket.on("error", reject);
      });
    const tooLong = await exchange(`GET /settings?q=${"x".repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(tooLong).toMatch(/^HTTP\/1\.1 431 .*\r\nContent-Type: text\/plain; charset=utf-8\r\n[\s\S]*\r\n\r\n.+\n$/);
    const cutShort = await exchange("POST /graphql HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n{}");
    expect(cutShort).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n[\s\S]*\r\n\r\nThe request is not valid HTTP.+\n$/);
  });

  test("a page is rendered whole and sent as one body with its length", async ({ request }) => {
    // Uncompressed, as a proxy that compresses itself asks for it.
    const page = await request.get("/", { headers: { "accept-encoding": "identity" } });
    expect(page.status()).toBe(200);
    expect(page.headers()["transfer-encoding"]).toBeUndefined();
    expect(Number(page.headers()["content-length"])).toBe((await page.body()).byteLength);
    expect((await page.text()).trimEnd()).toMatch(/<\/html>$/);
  });

  test("hashed assets are immutable for a year; pages are not cached", async ({ request }) => {
    const page = await request.get("/");
    expect(page.headers()["cache-control"]).toBe("private, no-cache");
    const html = await page.text();
    const script = /<link rel="modulepreload" href="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeTruthy();
    const asset = await request.get(script!);
    expect(asset.status()).toBe(200);
    expect(asset.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  test("answers that depend on the session are never stored: /graphql, signed-in pages and their .data", async ({ request }) => {
    const signUp = await request.post("/graphql", {
      data: operationBody(E2eServerSignUpDocument, { email: uniqueEmail("no-store"), password: "a sturdy passphrase" }),
    });
    expect(signUp.headers()["cache-control"]).toBe("private, no-store");
    const token = ((await signUp.json()) as { data: E2eServerSignUpMutation }).data.signUp.token;
    const cookie = { cookie: `weatherbot_session=${token}` };
    const data = await request.get("/settings.data", { headers: cookie });
    expect(data.status()).toBe(200);
    expect(data.headers()["cache-control"]).toBe("private, no-store");
    expect((await request.get("/_root.data", { headers: cookie })).headers()["cache-control"]).toBe("private, no-store");
    expect((await request.get("/settings", { headers: cookie })).headers()["cache-control"]).toBe("private, no-store");
  });

  test("HSTS goes only to clients a trusted proxy says came over HTTPS", async ({ request }) => {
    expect((await request.get("/", { headers: { "x-forwarded-proto": "https" } })).headers()["strict-transport-security"]).toBeUndefined();
    const trusted = await startAppServer({
      TRUST_PROXY: "loopback",
      OPEN_METEO_FORECAST_URL: process.env.E2E_FAKE_WEATHER_URL!,
      OPEN_METEO_GEOCODING_URL: process.env.E2E_FAKE_WEATHER_URL!,
    });
    try {
      for (const path of ["/", "/healthz", "/offline.html"]) {
        const overHttps = await fetch(`${trusted.baseURL}${path}`, { headers: { "x-forwarded-proto": "https" } });
        expect(overHttps.headers.get("strict-transport-security"), path).toBe("max-age=31536000; includeSubDomains");
        expect((await fetch(`${trusted.baseURL}${path}`)).headers.get("strict-transport-security"), path).toBeNull();
      }
    } finally {
      await trusted.stop();
    }
  });

  test("pages carry the stylesheet inline, under the response's nonce, and link none", async ({ page }) => {
    const response = await gotoHydrated(page, "/");
    const nonce = /style-src 'self' 'nonce-([^']+)'/.exec(response!.headers()["content-security-policy"] ?? "")?.[1];
    const html = await response!.text();
    const style = /<style id="app-stylesheet" nonce="([^"]+)">([\s\S]*?)<\/style>/.exec(html);
    expect(style?.[1]).toBe(nonce);
    expect(style?.[2]).toContain(".card{");
    expect(html).not.toMatch(/rel="stylesheet"/);
    // The styles apply, also after hydration: the header's links are laid out in a row, not as unstyled text.
    await expect(page.locator("header nav")).toHaveCSS("display", "flex");
    await expect(page.locator("style#app-stylesheet")).toHaveCount(1);
  });

  test("pages carry a nonce-based Content-Security-Policy that every inline script honours", async ({ request }) => {
    const response = await request.get("/");
    const csp = response.headers()["content-security-policy"] ?? "";
    const nonce = /script-src 'self' 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    // Scripts run by their nonce and what those load, whatever host allowlist an older browser reads.
    expect(csp).toContain(`script-src 'self' 'nonce-${nonce}' 'strict-dynamic';`);
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).toContain("frame-ancestors 'none'");
    const html = await response.text();
    const tags = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    // Data blocks (the page's GraphQL results) are never executed, so CSP does not apply to them.
    const scripts = tags.filter((tag) => !tag.includes('type="application/json"'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    // A fresh nonce for every response.
    const again = (await request.get("/")).headers()["content-security-policy"];
    expect(again).not.toBe(csp);
  });

  test("the offline page is served with a strict CSP of its own, under which its script runs", async ({
    page,
    request,
    context,
    baseURL,
    consoleGuard,
  }) => {
    const response = await request.get("/offline.html");
    const csp = response.headers()["content-security-policy"] ?? "";
    expect(csp).toMatch(
      /^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]+'; style-src 'sha256-[A-Za-z0-9+/=]+'; img-src 'self'; .*frame-ancestors 'none'$/,
    );
    // The same policy travels inside the page, for copies served from the service worker's precache.
    expect(await response.text()).toContain(
      `<meta http-equiv="Content-Security-Policy" content="${csp.replace("; frame-ancestors 'none'", "")}">`,
    );
    await context.addCookies([{ name: "i18n_redirected", value: "fr-FR", url: baseURL! }]);
    await page.goto("/offline.html");
    // The inline script ran (it picks the visitor's language) and the inline style applied.
    await expect(page.locator("html")).toHaveAttribute("lang", "fr-FR");
    await expect(page.locator("body")).toHaveCSS("display", "grid");
    expect(consoleGuard.messages().filter((line) => /Content Security Policy/i.test(line))).toEqual([]);
  });

  test("the page hydrates under its CSP without violations", async ({ page, consoleGuard }) => {
    await gotoHydrated(page, "/");
    await page.getByRole("button", { name: "About Weatherbot" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    expect(consoleGuard.messages().filter((line) => /Content Security Policy/i.test(line))).toEqual([]);
  });

  test("a cross-site form post is refused before it reaches an action", async ({ request }) => {
    const response = await request.post("/resources/locale", {
      form: { locale: "de-DE", redirectTo: "/" },
      headers: { Origin: "https://evil.example" },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(403);
    expect(response.headers()["set-cookie"]).toBeUndefined();
    const sameSite = await request.post("/resources/locale", {
      form: { locale: "de-DE", redirectTo: "/settings" },
      maxRedirects: 0,
    });
    expect(sameSite.status()).toBe(303);
    expect(sameSite.headers()["location"]).toBe("/settings");
  });

  test("an invalid locale or theme is a 400 with a message, not a crash", async ({ request }) => {
    const locale = await request.post("/resources/locale", { form: { locale: "xx-XX" }, maxRedirects: 0 });
    expect(locale.status()).toBe(400);
    expect(await locale.text()).toContain("locale must be one of");
    const theme = await request.post("/resources/theme", { form: { theme: "purple" }, maxRedirects: 0 });
    expect(theme.status()).toBe(400);
    const health = await request.get("/healthz");
    expect(health.status()).toBe(200);
  });
});

test("a bad configuration stops the server at startup with a message naming each variable", () => {
  const result = spawnSync(process.execPath, [SERVER_ENTRY], {
    env: { PATH: process.env.PATH ?? "", PORT: "eighty", TRUST_PROXY: "sometimes", NODE_ENV: "staging" },
    encoding: "utf8",
    // Only a guard against a server that does not stop: on a loaded machine loading the bundle alone took over 15 s.
    timeout: 50_000,
  });
  expect(result.status).toBe(1);
  expect(result.stderr).toContain("Invalid configuration:");
  expect(result.stderr).toContain('PORT: expected a whole number from 0 to 65535 (got "eighty")');
  expect(result.stderr).toContain("TRUST_PROXY:");
  expect(result.stderr).toContain('NODE_ENV: expected "development", "production" or "test" (got "staging")');
  expect(result.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

test("nothing secret or server-only is in build/client", () => {
  const files = filesUnder(path.join(ROOT, "build/client"));
  expect(files.length).toBeGreaterThan(5);
  // Markers of server-only modules and configuration.
  const forbidden = [
    "SESSION_SECRET",
    "TEST_HOOKS",
    "weatherbot_flash",
    "createCookieSessionStorage",
    "node:crypto",
    "randomBytes",
    "Invalid configuration",
    "content-security-policy",
    "Unknown middleware",
    // The embedded API and its dependencies.
    "graphql-yoga",
    "better-sqlite3",
    "scrypt",
    "web-push",
    "vapid",
    "weatherbot_session",
    "dedupe_key",
  ];
  const offenders: string[] = [];
  for (const file of files) {
    if (file.endsWith(".map")) offenders.push(`${file}: source map published`);
    const text = readFileSync(file, "utf8");
    for (const marker of forbidden) if (text.includes(marker)) offenders.push(`${path.relative(ROOT, file)}: ${marker}`);
  }
  expect(offenders).toEqual([]);
});

test.describe("the embedded GraphQL API", () => {
  test("is served by the same process at /graphql", async ({ request }) => {
    const response = await request.post("/graphql", {
      data: operationBody(E2eServerSearchLocationsDocument, { query: "ber" }),
    });
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual({ data: { searchLocations: [{ name: "Berlin", timeZone: "Europe/Berlin" }] } });
  });

  test("accepts the session cookie from the app's own pages, and refuses it cross-site", async ({ playwright, baseURL }) => {
    const api = await playwright.request.newContext({ baseURL });
    const signUp = await api.post("/graphql", {
      data: operationBody(E2eServerSignUpDocument, { email: "cookie@example.com", password: "a cookie pass" }),
    });
    const token = ((await signUp.json()) as { data: E2eServerSignUpMutation }).data.signUp.token;
    const me = operationBody(E2eServerMeDocument);
    const sameOrigin = await api.post("/graphql", {
      data: me,
      headers: { Cookie: `weatherbot_session=${token}`, Origin: baseURL!, "Sec-Fetch-Site": "same-origin" },
    });
    expect(await sameOrigin.json()).toEqual({ data: { me: { email: "cookie@example.com" } } });
    const crossSite = await api.post("/graphql", {
      data: operationBody(E2eServerLogOutDocument),
      headers: { Cookie: `weatherbot_session=${token}`, Origin: "https://evil.example" },
    });
    expect(crossSite.status()).toBe(403);
    await api.dispose();
  });

  test("refuses a cross-site POST (CSRF) before it reaches a resolver", async ({ request }) => {
    const response = await request.post("/graphql", {
      data: operationBody(E2eServerLogOutDocument),
      headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
    });
    expect(response.status()).toBe(403);
  });
});
