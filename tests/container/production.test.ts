import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { print } from "graphql";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { timeOrderedLowerBound } from "~/shared/live-cursor";
import { SESSION_COOKIE } from "~/shared/session-cookie";
import { startFakeOfficialWarnings, type FakeOfficialWarnings } from "../fakes/official-warnings";
import { startFakeOpenMeteo, type FakeOpenMeteo } from "../fakes/open-meteo";
import {
  TestContainerAddPlaceDocument,
  TestContainerGermanDocument,
  TestContainerLiveDocument,
  TestContainerLogInDocument,
  TestContainerMeDocument,
  TestContainerSaveBriefingDocument,
  TestContainerSearchBerlinDocument,
  TestContainerSendBriefingDocument,
  TestContainerSignUpDocument,
} from "../support/documents.generated";
import { startPostgresServer, type PostgresServer } from "../support/postgres-server";
import { freePort, sessionSecret, startApp, type AppContainer } from "./support/deployment";
import { httpsClient, setCookies, waitFor, type HttpsClient } from "./support/https-client";
import { selfSignedCertificate, startNginx, type Certificate, type Nginx } from "./support/nginx";
import { createVolume, PODMAN_LIMITS, podman, removeRun, stopContainer } from "./support/podman";

/*
 * The production path, for real: the repository's Dockerfile built with podman (global-setup.ts), its
 * containers behind Debian's nginx running the example configuration (deploy/nginx/weatherbot.conf) with
 * TLS from a self-signed certificate, all on loopback.
 *
 * Two deployments, each a `describe` with its containers and proxy started once in `beforeAll`:
 *  - one container on its embedded SQLite, on podman's own network, published with `-p 127.0.0.1:PORT:3000`,
 *    TRUST_PROXY unset (the image's defaults);
 *  - two containers on one PostgreSQL (the host's, reached over the host's network), TRUST_PROXY naming nginx.
 * A further check of a running deployment (its /metrics, its log lines) is one more `it` beside these,
 * with `proxy` (HTTPS through nginx) and `app.logs()` at hand.
 */

const image = inject("containerImage");
const runId = inject("containerRunId");
const PASSWORD = "a sturdy passphrase for containers";
const email = (what: string) => `${what}-${runId}-${Math.random().toString(36).slice(2, 8)}@weatherbot.test`;

const SIGN_UP = TestContainerSignUpDocument;
const LOG_IN = TestContainerLogInDocument;
const ME = TestContainerMeDocument;

let certDir: string;
let cert: Certificate;

beforeAll(async () => {
  certDir = await mkdtemp(path.join(tmpdir(), "weatherbot-tls-"));
  cert = await selfSignedCertificate(certDir);
});

afterAll(async () => {
  await removeRun(runId);
  await rm(certDir, { recursive: true, force: true });
});

/** A form post to /settings, as the page's account form sends it (no JavaScript): the session cookie comes back. */
function accountForm(proxy: HttpsClient, intent: "signup" | "login", address: string, localAddress?: string) {
  return proxy.send("/settings", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent, email: address, password: PASSWORD }).toString(),
    localAddress,
  });
}

/** A wrong password for `account` from the client address `from` (as nginx sees it): the error code the API gives. */
async function failedLogIn(proxy: HttpsClient, account: string, from: string, headers: Record<string, string> = {}) {
  const result = await proxy.gql(LOG_IN, { email: account, password: "not the password at all" }, { localAddress: from, headers });
  expect(result.data?.logIn).toBeFalsy();
  return result.errors?.[0]?.extensions?.code;
}

/** Five wrong passwords for one account from one address: the sixth from there is refused (the log-in limit per address). */
async function exhaustFromAddress(proxy: HttpsClient, account: string, from: string) {
  for (let attempt = 1; attempt <= 5; attempt++) expect(await failedLogIn(proxy, account, from)).not.toBe("RATE_LIMITED");
  expect(await failedLogIn(proxy, account, from)).toBe("RATE_LIMITED");
}

describe("the image", () => {
  it("runs as the unprivileged user node, with /data a volume, a HEALTHCHECK and production settings", async () => {
    const { stdout } = await podman(["image", "inspect", "--format", "json", image]);
    const [inspected] = JSON.parse(stdout) as Array<{
      Config: { User: string; Volumes?: Record<string, unknown>; Env: string[]; ExposedPorts?: object };
      Healthcheck?: { Test: string[] };
    }>;
    const config = inspected!.Config;
    expect(config.User).toBe("node");
    expect(Object.keys(config.Volumes ?? {})).toEqual(["/data"]);
    expect(inspected!.Healthcheck?.Test.join(" ")).toContain("/healthz");
    expect(config.Env).toEqual(expect.arrayContaining(["NODE_ENV=production", "HOST=0.0.0.0", "PORT=3000", "DATA_DIR=/data"]));
    expect(Object.keys(config.ExposedPorts ?? {})).toEqual(["3000/tcp"]);
    // Production dependencies only: no build or test tools in the image (npm prune leaves empty scope folders behind).
    const devOnly = ["vite", "vite-plugin-pwa", "workbox-build", "rollup", "vitest", "@playwright/test", "eslint", "prettier"];
    const probe = await podman([
      "run",
      "--rm",
      ...PODMAN_LIMITS,
      image,
      "sh",
      "-c",
      `id -u; for p in better-sqlite3 pg ${devOnly.join(" ")}; do [ -e node_modules/$p/package.json ] && echo $p; done; true`,
    ]);
    const [uid, ...installed] = probe.stdout.trim().split("\n");
    expect(uid).toBe("1000");
    expect(installed).toEqual(["better-sqlite3", "pg"]);
  });
});

describe("one container on its embedded SQLite, published with -p, behind nginx (TRUST_PROXY unset)", () => {
  let app: AppContainer;
  let nginx: Nginx;
  let proxy: HttpsClient;
  let volume: string;
  const start = (port: number) => startApp({ name: `wbtest-${runId}-solo-${port}`, image, runId, publish: port, volume, port });

  beforeAll(async () => {
    volume = await createVolume(`wbtest-${runId}-solo-data`, runId);
    // No configuration at all: the image's defaults (SQLite in /data, a generated session secret and keys).
    app = await start(await freePort());
    nginx = await startNginx({ upstreams: [`127.0.0.1:${app.port}`], httpsPort: await freePort(), httpPort: await freePort(), cert });
    proxy = httpsClient(nginx.url, cert.pem);
  });

  afterAll(async () => {
    await nginx?.stop();
  });

  it("serves the app's page over TLS through nginx, and redirects plain HTTP to HTTPS", async () => {
    const page = await proxy.send("/");
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.body).toMatch(/<html[^>]* lang="en-US"/);
    expect(page.headers["content-security-policy"]).toContain("nonce-");
    const asset = /"(\/assets\/[^"]+\.js)"/.exec(page.body)?.[1];
    expect(asset).toBeTruthy();
    expect((await proxy.send(asset!)).status).toBe(200);

    const plain = await fetch(`http://127.0.0.1:${nginx.httpPort}/settings`, { redirect: "manual" });
    expect(plain.status).toBe(301);
    expect(plain.headers.get("location")).toBe(`https://127.0.0.1/settings`);
  });

  it("answers /graphql through nginx", async () => {
    const result = await proxy.gql(ME);
    expect(result.answer.status).toBe(200);
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ me: null });
  });

  it("keeps /metrics to itself: nginx answers 404, and the app makes its own request ids (nginx is not trusted here)", async () => {
    expect((await proxy.send("/metrics")).status).toBe(404);
    expect((await proxy.send("/healthz")).headers["x-request-id"]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  it("carries a WebSocket (graphql-ws) through nginx: upgraded, acknowledged, and the subscription answers", async () => {
    const { token } = (await proxy.gql(SIGN_UP, { email: email("ws"), password: PASSWORD })).data!.signUp;
    let upgraded: Record<string, unknown> | undefined;
    const client = proxy.ws({ token, onUpgrade: (headers) => (upgraded = headers) });
    try {
      const connected = new Promise<void>((resolve, reject) => {
        client.on("connected", () => resolve());
        client.on("closed", (event) => reject(new Error(`socket closed: ${JSON.stringify(event)}`)));
        client.on("error", reject);
      });
      await connected;
      expect(upgraded?.["x-test-upstream"]).toBe(`127.0.0.1:${app.port}`);
      // A query over the socket: the API answers through the proxy both ways.
      const answer = await new Promise<unknown>((resolve, reject) => {
        let value: unknown;
        client.subscribe({ query: print(ME) }, { next: (result) => (value = result), error: reject, complete: () => resolve(value) });
      });
      expect(answer).toMatchObject({ data: { me: { email: expect.stringContaining("@weatherbot.test") } } });
    } finally {
      await client.dispose();
    }
  });

  it("passes the image's HEALTHCHECK, and /healthz answers through nginx", async () => {
    const { code } = await podman(["healthcheck", "run", app.name], { allowFailure: true });
    expect(code).toBe(0);
    const health = await proxy.send("/healthz");
    expect(health.status).toBe(200);
    // No configuration: the embedded SQLite in the volume.
    expect(JSON.parse(health.body)).toMatchObject({ status: "ok", database: { dialect: "sqlite", reachable: true } });
  });

  it("without TRUST_PROXY: no HSTS, no Secure cookie, and X-Forwarded-For is not believed", async () => {
    const page = await proxy.send("/");
    expect(page.headers["strict-transport-security"]).toBeUndefined();
    const signedUp = await accountForm(proxy, "signup", email("plain"));
    expect(signedUp.status).toBe(303);
    const session = setCookies(signedUp).find((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`));
    expect(session).toBeTruthy();
    expect(session).not.toMatch(/;\s*Secure/i);

    // Every client is nginx's address to the app: a limit reached from 127.0.0.2 holds for 127.0.0.3 too.
    const account = email("limit-untrusted");
    await exhaustFromAddress(proxy, account, "127.0.0.2");
    expect(await failedLogIn(proxy, account, "127.0.0.3")).toBe("RATE_LIMITED");
  });

  it("keeps its data when the container is replaced (same volume): accounts, sessions, settings, the session secret", async () => {
    const address = email("kept");
    const { token } = (await proxy.gql(SIGN_UP, { email: address, password: PASSWORD })).data!.signUp;
    const changed = await proxy.gql(TestContainerGermanDocument, {}, { token });
    expect(changed.errors).toBeUndefined();
    const cookie = setCookies(await accountForm(proxy, "login", address))
      .find((line) => line.startsWith(`${SESSION_COOKIE}=`))!
      .split(";")[0]!;

    await stopContainer(app.name);
    await podman(["rm", app.name]);
    app = await start(app.port);

    const me = await proxy.gql(ME, {}, { token });
    expect(me.data?.me).toEqual({ email: address, settings: { language: "DE_DE" } });
    const loggedIn = await proxy.gql(LOG_IN, { email: address, password: PASSWORD });
    expect(loggedIn.data?.logIn.user.email).toBe(address);
    // The cookie of before the replacement still opens the settings page signed in.
    const settings = await proxy.send("/settings", { headers: { cookie } });
    expect(settings.status).toBe(200);
    expect(settings.body).toContain(address);
  });
});

describe("two containers on one PostgreSQL behind nginx (TRUST_PROXY=127.0.0.1)", () => {
  let postgres: PostgresServer;
  let weather: FakeOpenMeteo;
  let warnings: FakeOfficialWarnings;
  let apps: AppContainer[];
  let nginx: Nginx;
  let proxy: HttpsClient;

  beforeAll(async () => {
    postgres = await startPostgresServer();
    const admin = new pg.Client({ connectionString: postgres.adminUrl });
    await admin.connect();
    await admin.query("create database weatherbot");
    await admin.end();
    weather = await startFakeOpenMeteo();
    warnings = await startFakeOfficialWarnings();
    const shared = {
      image,
      runId,
      hostNetwork: true,
      volume: await createVolume(`wbtest-${runId}-pair-data`, runId),
    };
    const env = (port: number) => ({
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: `postgres://postgres@127.0.0.1:${postgres.port}/weatherbot`,
      SESSION_SECRET: secret,
      // nginx connects from 127.0.0.1; the test's clients are 127.0.0.2 and on: they are not trusted.
      TRUST_PROXY: "127.0.0.1",
      OPEN_METEO_FORECAST_URL: weather.url,
      OPEN_METEO_GEOCODING_URL: weather.url,
      OPEN_METEO_AIR_QUALITY_URL: weather.url,
      NWS_ALERTS_URL: warnings.url,
      METEOALARM_URL: warnings.url,
    });
    const secret = sessionSecret();
    const [portA, portB] = [await freePort(), await freePort()];
    // One after the other: the first creates the tables and the keys in the shared /data, the second finds them.
    apps = [];
    apps.push(await startApp({ ...shared, name: `wbtest-${runId}-a`, port: portA, env: env(portA) }));
    apps.push(await startApp({ ...shared, name: `wbtest-${runId}-b`, port: portB, env: env(portB) }));
    nginx = await startNginx({
      upstreams: apps.map((app) => `127.0.0.1:${app.port}`),
      httpsPort: await freePort(),
      httpPort: await freePort(),
      cert,
    });
    proxy = httpsClient(nginx.url, cert.pem);
  });

  afterAll(async () => {
    await nginx?.stop();
    await removeRun(runId);
    await weather?.close();
    await warnings?.close();
    await postgres?.stop();
  });

  const upstreamOf = (headers: Record<string, unknown>) => String(headers["x-test-upstream"]);

  it("both containers run on PostgreSQL (DATABASE_URL) and pass their HEALTHCHECK", async () => {
    for (const app of apps) {
      const direct = await fetch(`http://127.0.0.1:${app.port}/healthz`);
      expect(await direct.json()).toMatchObject({ status: "ok", database: { dialect: "postgres", reachable: true } });
      expect((await podman(["healthcheck", "run", app.name], { allowFailure: true })).code).toBe(0);
    }
  });

  it("a request's id is nginx's (X-Request-Id from the trusted proxy), so both logs name the same request", async () => {
    const answer = await proxy.send("/healthz");
    expect(answer.headers["x-request-id"]).toMatch(/^[0-9a-f]{32}$/);
  });

  it("HTTPS at nginx: HSTS and a Secure session cookie, because of X-Forwarded-Proto", async () => {
    const page = await proxy.send("/");
    expect(page.headers["strict-transport-security"]).toMatch(/max-age=\d+/);
    const signedUp = await accountForm(proxy, "signup", email("secure"));
    expect(signedUp.status).toBe(303);
    const session = setCookies(signedUp).find((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`));
    expect(session).toMatch(/;\s*Secure/i);
    expect(session).toMatch(/;\s*HttpOnly/i);
  });

  it("the client's address comes from X-Forwarded-For (nginx is trusted), and a forged one is not believed", async () => {
    const account = email("limit-trusted");
    await exhaustFromAddress(proxy, account, "127.0.0.2");
    // Another client address is another client.
    expect(await failedLogIn(proxy, account, "127.0.0.3")).not.toBe("RATE_LIMITED");
    // 127.0.0.2 claiming to be someone else: nginx appends the address it saw, and only that one is believed.
    expect(await failedLogIn(proxy, account, "127.0.0.2", { "x-forwarded-for": "127.0.0.9" })).toBe("RATE_LIMITED");
  });

  it("a log-in answered by one container, the next request by the other: still signed in", async () => {
    const address = email("pair");
    await proxy.gql(SIGN_UP, { email: address, password: PASSWORD });
    const loggedIn = await proxy.gql(LOG_IN, { email: address, password: PASSWORD });
    const token = loggedIn.data!.logIn.token;
    const first = upstreamOf(loggedIn.answer.headers);
    expect(apps.map((app) => `127.0.0.1:${app.port}`)).toContain(first);
    // nginx takes turns; asked until the other container answers (bounded).
    const other = await waitFor(async () => {
      const next = await proxy.gql(ME, {}, { token });
      return upstreamOf(next.answer.headers) !== first && next;
    }, "a request answered by the other container");
    expect(other.data?.me?.email).toBe(address);
  });

  it("a message written through one container reaches a subscriber on the other", async () => {
    const address = email("live");
    const token = (await proxy.gql(SIGN_UP, { email: address, password: PASSWORD })).data!.signUp.token;
    const found = await proxy.gql(TestContainerSearchBerlinDocument, {}, { token });
    const place = await proxy.gql(TestContainerAddPlaceDocument, { id: found.data!.searchLocations[0]!.id }, { token });
    const briefing = await proxy.gql(
      TestContainerSaveBriefingDocument,
      { input: { name: "Morning", placeIds: [place.data!.addPlace.id], period: "TODAY", time: "07:00", days: ["MON"] } },
      { token },
    );
    expect(briefing.errors).toBeUndefined();

    let subscriberOn = "";
    const client = proxy.ws({ token, onUpgrade: (headers) => (subscriberOn = upstreamOf(headers)) });
    const received: string[] = [];
    try {
      await new Promise<void>((resolve, reject) => {
        client.on("connected", () => resolve());
        client.on("closed", (event) => reject(new Error(`socket closed: ${JSON.stringify(event)}`)));
      });
      // From a minute back: a message written before the subscription is in place still comes.
      client.subscribe<{ messageReceived: { id: string } }>(
        {
          query: print(TestContainerLiveDocument),
          variables: { after: timeOrderedLowerBound(Date.now() - 60_000) },
        },
        { next: (result) => void (result.data && received.push(result.data.messageReceived.id)), error: () => {}, complete: () => {} },
      );
      expect(apps.map((app) => `127.0.0.1:${app.port}`)).toContain(subscriberOn);
      // Written through the container the subscriber is not on (nginx takes turns; asked until it is the other).
      const sent = await waitFor(async () => {
        const answer = await proxy.gql(TestContainerSendBriefingDocument, { id: briefing.data!.saveBriefing.id }, { token });
        if (!answer.data?.sendBriefingNow) throw new Error(JSON.stringify(answer.errors));
        return upstreamOf(answer.answer.headers) !== subscriberOn && answer.data.sendBriefingNow.id;
      }, "a message written through the other container");
      await waitFor(() => received.includes(sent), "the subscriber on the other container to get the message", 30_000);
    } finally {
      await client.dispose();
    }
  });
});
