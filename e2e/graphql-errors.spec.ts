import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, gotoHydrated, test } from "./fixtures";
import { startAppServer, type AppServer } from "./support/app-server";
import { recordGraphQLOperations } from "./support/graphql";
import { waitForOfflineReady } from "./support/pwa";

type Mode = "ok" | "errors" | "http-502" | "not-json";

/**
 * A hosted GraphQL API that misbehaves on demand: the app's server (loaders) and the
 * browser (through the app's /graphql proxy) both talk to it.
 */
async function startMisbehavingApi() {
  let mode: Mode = "ok";
  const settings = {
    __typename: "Settings",
    id: "s1",
    language: "EN_US",
    timeZone: "UTC",
    hour12: false,
    temperatureUnit: "CELSIUS",
    windSpeedUnit: "KMH",
    precipitationUnit: "MM",
    quietHoursEnabled: false,
    quietFrom: "22:00",
    quietTo: "07:00",
    pushEnabled: false,
  };
  const viewer = { me: { __typename: "User", id: "u1", email: "pat@example.com", unreadCount: 0, settings } };
  const answers: Record<string, unknown> = {
    Viewer: viewer,
    Settings: { me: { __typename: "User", id: "u1", settings }, mailAvailable: false },
    MailAvailable: { mailAvailable: false },
    Places: { me: { __typename: "User", id: "u1", places: [] } },
    Inbox: { messages: { __typename: "MessageConnection", edges: [], endCursor: null, hasMore: false } },
    // Every query the two pages make: one answered with null would be asked again after
    // hydration, and could then meet the failure meant for the next step.
    Briefings: { briefings: [] },
    AlertRules: { alertRules: [] },
    AccountSessions: {
      me: {
        __typename: "User",
        id: "u1",
        sessions: [
          {
            __typename: "AccountSession",
            id: "s1",
            current: true,
            createdAt: "2031-01-15T09:00:00.000Z",
            lastSeenAt: "2031-01-15T09:00:00.000Z",
            browser: "Chrome 140",
            os: "Linux",
            deviceType: "DESKTOP",
          },
        ],
      },
    },
  };
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const { operationName } = JSON.parse(body || "{}") as { operationName?: string };
      if (mode === "errors") {
        response.writeHead(200, { "content-type": "application/json" });
        return response.end(JSON.stringify({ errors: [{ message: "Boom" }, { message: "Bang" }] }));
      }
      if (mode === "http-502") {
        response.writeHead(502, { "content-type": "text/plain" });
        return response.end("upstream unavailable");
      }
      if (mode === "not-json") {
        response.writeHead(200, { "content-type": "application/json" });
        return response.end("<html>definitely not JSON</html>");
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ data: answers[operationName ?? ""] ?? null }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`,
    setMode: (next: Mode) => (mode = next),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let api: Awaited<ReturnType<typeof startMisbehavingApi>>;
let front: AppServer;

test.beforeAll(async () => {
  api = await startMisbehavingApi();
  front = await startAppServer({ GRAPHQL_URL: api.url });
});
test.afterAll(async () => {
  await front?.stop();
  await api?.close();
});
test.beforeEach(() => api.setMode("ok"));

const EXPECTED: Array<[Mode, number, RegExp]> = [
  ["errors", 502, /^GraphQL response contains errors: Boom, Bang$/],
  ["http-502", 502, /^Server error: HTTP 502$/],
  ["not-json", 502, /^Parse error: .+/],
];

test.describe("failed operations reach the user", () => {
  for (const [mode, status, message] of EXPECTED) {
    test(`server render, ${mode}: the error page with the client's message`, async ({ page, consoleGuard }) => {
      consoleGuard.allow(/status of 502/);
      api.setMode(mode);
      const response = await page.goto(`${front.baseURL}/`);
      expect(response!.status()).toBe(status);
      await expect(page.getByTestId("error-description")).toHaveText(message);
    });
  }

  test("in the browser, a failed page load shows the same message as the server would", async ({ page, context }) => {
    await context.addCookies([{ name: "weatherbot_session", value: "hosted-token", url: front.baseURL }]);
    const webSockets: string[] = [];
    page.on("websocket", (socket) => webSockets.push(socket.url()));
    const graphqlRequests = recordGraphQLOperations(page);
    await gotoHydrated(page, `${front.baseURL}/settings`);
    await expect(page.getByText("Signed in as pat@example.com")).toBeVisible();
    // The page's own background work (worker install, offline copies) is over before the API fails.
    await waitForOfflineReady(page);
    expect(graphqlRequests).toEqual([]);
    api.setMode("errors");
    // Home needs places and the inbox, which the cache does not hold yet.
    await page.getByRole("link", { name: "Home", exact: true }).click();
    await expect(page.getByTestId("error-description")).toHaveText("GraphQL response contains errors: Boom, Bang");
    // A loader's failure is the error page, not also a toast.
    await expect(page.locator(".toast")).toHaveCount(0);
    // A hosted API without a WebSocket endpoint here: everything went over HTTP.
    expect(webSockets).toEqual([]);
  });
});
