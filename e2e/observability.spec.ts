import { print } from "graphql";
import { expect, gotoHydrated, test } from "./fixtures";
import { startAppServer, type AppServer } from "./support/app-server";
import { apiAs, signInBrowser, uniqueEmail } from "./support/graphql";
import { E2eSignUpDocument } from "./support/documents.generated";
import { parsePrometheusText, sampleSum } from "../tests/support/prometheus-text";

/**
 * The production build's logs and metrics, from a server of this file's own (its stdout is
 * read): every line it writes is JSON, a request's line and its GraphQL operations' lines
 * share the id the response names, the 500 page shows that id, and /metrics answers only
 * allowed addresses or the token. Loopback is a trusted proxy here, so a test can speak as
 * a proxy forwarding an outside client (X-Forwarded-For) or naming the request's id.
 */
const METRICS_TOKEN = "e2e-metrics-token-0123456789abcdef";

type LogLine = { level: string; time: string; msg: string; reqId?: string; [field: string]: unknown };

test.describe.configure({ mode: "serial" });

let server: AppServer;
test.beforeAll(async () => {
  server = await startAppServer({
    OPEN_METEO_FORECAST_URL: process.env.E2E_FAKE_WEATHER_URL!,
    OPEN_METEO_GEOCODING_URL: process.env.E2E_FAKE_WEATHER_URL!,
    TRUST_PROXY: "loopback",
    LOG_LEVEL: "info",
    METRICS_TOKEN,
  });
});
test.afterAll(() => server.stop());

/** Every line on stdout so far, each parsed as JSON (a line that is not fails the test). */
function logLines(): LogLine[] {
  return server
    .stdout()
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      try {
        return JSON.parse(line) as LogLine;
      } catch {
        throw new Error(`not a JSON log line: ${line}`);
      }
    });
}

/** Waits for the log lines of request `id` that `match` picks (the log is written asynchronously). */
async function linesOf(id: string, match: (line: LogLine) => boolean, count = 1): Promise<LogLine[]> {
  await expect.poll(() => logLines().filter((line) => line.reqId === id && match(line)).length).toBeGreaterThanOrEqual(count);
  return logLines().filter((line) => line.reqId === id && match(line));
}

const isRequestLine = (path: string) => (line: LogLine) => line.msg === "request" && line.path === path;

test("every line the server writes is JSON; a request's line and its GraphQL operations' lines carry the id its response names", async ({
  request,
  context,
  page,
}) => {
  // /graphql over HTTP: one line, the request's, names its operation under the response's id.
  const signUp = await request.post(`${server.baseURL}/graphql`, {
    data: { query: print(E2eSignUpDocument), variables: { email: uniqueEmail("logs"), password: "a sturdy passphrase" } },
  });
  expect(signUp.status()).toBe(200);
  const signUpId = signUp.headers()["x-request-id"]!;
  expect(signUpId).toMatch(/^[0-9a-f-]{36}$/);
  const [graphqlLine] = await linesOf(signUpId, isRequestLine("/graphql"));
  expect(graphqlLine).toMatchObject({ level: "info", method: "POST", status: 200, op: "E2eSignUp", type: "mutation" });
  expect(typeof graphqlLine!.ms).toBe("number");
  expect(Date.parse(graphqlLine!.time)).not.toBeNaN();
  expect(logLines().filter((line) => line.reqId === signUpId)).toHaveLength(1);
  // A refused operation: its error codes are in the line. A string, not a typed document: any client's own
  // operation name is what the line must show.
  const refused = await request.post(`${server.baseURL}/graphql`, { data: { query: "query Mine { places { id } }" } });
  const [refusedLine] = await linesOf(refused.headers()["x-request-id"]!, isRequestLine("/graphql"));
  expect(refusedLine).toMatchObject({ op: "Mine", type: "query", errors: ["UNAUTHENTICATED"] });
  const token = ((await signUp.json()) as { data: { signUp: { token: string } } }).data.signUp.token;

  // A page: its loaders' operations run in-process under the page's id.
  await signInBrowser(context, server.baseURL, token);
  const response = await gotoHydrated(page, `${server.baseURL}/settings`);
  const pageId = (await response!.allHeaders())["x-request-id"]!;
  const [pageLine] = await linesOf(pageId, isRequestLine("/settings"));
  expect(pageLine).toMatchObject({ method: "GET", status: 200 });
  const operations = await linesOf(pageId, (line) => line.msg === "graphql operation");
  expect(operations.map((line) => line.op)).toContain("Viewer");

  // A trusted proxy's id is kept (nginx's $request_id); it reaches the operations too.
  const proxied = await request.get(`${server.baseURL}/`, { headers: { "x-request-id": "0123456789abcdef0123456789abcdef" } });
  expect(proxied.headers()["x-request-id"]).toBe("0123456789abcdef0123456789abcdef");
  await linesOf("0123456789abcdef0123456789abcdef", (line) => line.msg === "graphql operation");

  // A failing request: its error line and its request line (level error, status 500) share its id.
  const failed = await request.get(`${server.baseURL}/__test/error?message=disk%20on%20fire`);
  expect(failed.status()).toBe(500);
  const failedId = failed.headers()["x-request-id"]!;
  const [failure] = await linesOf(failedId, (line) => line.level === "error" && line.msg !== "request");
  expect((failure!.err as { message: string; stack: string }).message).toBe("disk on fire");
  expect((failure!.err as { stack: string }).stack).toContain("Error: disk on fire");
  const [failedLine] = await linesOf(failedId, isRequestLine("/__test/error"));
  expect(failedLine).toMatchObject({ level: "error", status: 500 });

  // Nothing else on stdout: the whole run so far parses (logLines throws otherwise), and ids are unique per request.
  const requestLines = logLines().filter((line) => line.msg === "request");
  expect(new Set(requestLines.map((line) => line.reqId)).size).toBe(requestLines.length);
  expect(logLines().some((line) => line.msg.startsWith("Weatherbot listening on"))).toBe(true);
});

test("the 500 page shows the request's id, in the user's language", async ({ page, context, consoleGuard }) => {
  consoleGuard.allow(/Failed to load resource: the server responded with a status of 500/);
  const response = await gotoHydrated(page, `${server.baseURL}/__test/error`);
  expect(response!.status()).toBe(500);
  const id = (await response!.allHeaders())["x-request-id"]!;
  await expect(page.getByTestId("error-request-id")).toHaveText(`Request ID: ${id} (quote it when you report this problem)`);
  await linesOf(id, (line) => line.level === "error" && line.msg !== "request");

  await context.addCookies([{ name: "i18n_redirected", value: "de-DE", url: server.baseURL }]);
  const german = await gotoHydrated(page, `${server.baseURL}/__test/error`);
  const germanId = (await german!.allHeaders())["x-request-id"]!;
  await expect(page.getByTestId("error-request-id")).toHaveText(`Anfrage-ID: ${germanId} (gib sie an, wenn du dieses Problem meldest)`);

  // A page that is not a server error names no id.
  consoleGuard.allow(/Failed to load resource: the server responded with a status of 404/);
  await gotoHydrated(page, `${server.baseURL}/no/such/page`);
  await expect(page.getByTestId("error-page")).toBeVisible();
  await expect(page.getByTestId("error-request-id")).toHaveCount(0);
});

test("/metrics: Prometheus' format for allowed addresses or the token, counts that move with requests and operations", async ({
  request,
}) => {
  const metricsUrl = `${server.baseURL}/metrics`;
  const scrape = async (headers: Record<string, string> = {}) => {
    const response = await request.get(metricsUrl, { headers });
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    return parsePrometheusText(await response.text());
  };
  const before = await scrape();
  expect(before.types.get("weatherbot_http_request_duration_seconds")).toBe("histogram");
  expect(before.types.get("weatherbot_graphql_operation_duration_seconds")).toBe("histogram");
  expect(before.types.get("weatherbot_graphql_subscriptions_open")).toBe("gauge");
  expect(before.types.get("process_cpu_user_seconds_total")).toBe("counter");

  await request.get(`${server.baseURL}/`);
  const gql = apiAs(request, server.baseURL, null);
  await gql(E2eSignUpDocument, { email: uniqueEmail("metrics"), password: "a sturdy passphrase" });
  const after = await scrape();
  const moved = (name: string, labels: Record<string, string>) => sampleSum(after, name, labels) - sampleSum(before, name, labels);
  expect(moved("weatherbot_http_request_duration_seconds_count", { method: "GET", route: "page", status_class: "2xx" })).toBe(1);
  expect(moved("weatherbot_http_request_duration_seconds_count", { method: "POST", route: "graphql", status_class: "2xx" })).toBe(1);
  expect(moved("weatherbot_graphql_operation_duration_seconds_count", { operation: "E2eSignUp", type: "mutation" })).toBe(1);
  // The page's loaders ran their operations in-process: counted as operations, not as HTTP requests.
  expect(moved("weatherbot_graphql_operation_duration_seconds_count", { operation: "Viewer" })).toBeGreaterThanOrEqual(1);

  // A client outside (as a trusted proxy forwards it): not found without the token, forbidden with a wrong one.
  const outside = { "x-forwarded-for": "203.0.113.50" };
  const refused = await request.get(metricsUrl, { headers: outside });
  expect(refused.status()).toBe(404);
  expect(await refused.text()).not.toContain("weatherbot_");
  expect((await request.get(metricsUrl, { headers: { ...outside, authorization: "Bearer not-the-token-at-all" } })).status()).toBe(403);
  const withToken = await scrape({ ...outside, authorization: `Bearer ${METRICS_TOKEN}` });
  expect(withToken.types.get("weatherbot_engine_tick_duration_seconds")).toBe("histogram");
});
