import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ssrExchange } from "@urql/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGraphQLClient } from "~/lib/graphql/client";
import { VIEWER_QUERY } from "~/lib/graphql/documents";
import { graphqlErrorMessage } from "~/lib/graphql/errors";

/** What the fake API answers next: status, content type and body as they go over the wire. */
let answer = { status: 200, type: "application/json", body: "{}" };
let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((_request, response) => {
    response.writeHead(answer.status, { "content-type": answer.type });
    response.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The message the app's own client shows when the API answers `next`. */
async function messageFor(next: typeof answer) {
  answer = next;
  const client = createGraphQLClient({ url, ssr: ssrExchange({ isClient: false }) });
  const result = await client.query(VIEWER_QUERY, {}, { requestPolicy: "network-only" }).toPromise();
  expect(result.error).toBeDefined();
  return graphqlErrorMessage(result.error!);
}

const html = "<!doctype html><html><body><h1>Maintenance</h1></body></html>";

describe("what a failed answer says, through the real client over HTTP", () => {
  it("GraphQL errors: the prefix of docs/product-constants.md and the messages joined, whatever the status", async () => {
    const body = JSON.stringify({ errors: [{ message: "Boom" }, { message: "Bang" }] });
    expect(await messageFor({ status: 200, type: "application/json", body })).toBe("GraphQL response contains errors: Boom, Bang");
    expect(await messageFor({ status: 502, type: "application/json", body })).toBe("GraphQL response contains errors: Boom, Bang");
  });

  it.each([
    [502, "text/html"],
    [500, "application/json"],
    [404, "text/plain"],
    [301, "text/html"],
  ])("HTTP %i (%s, no GraphQL errors): a server error", async (status, type) => {
    expect(await messageFor({ status, type, body: type === "application/json" ? "{}" : html })).toBe(`Server error: HTTP ${status}`);
  });

  it("a body that is not JSON: a parse error, whatever the content type says, without the page itself", async () => {
    expect(await messageFor({ status: 200, type: "application/json", body: html })).toMatch(/^Parse error: Unexpected token '<'/);
    expect(await messageFor({ status: 200, type: "text/html", body: html })).toBe("Parse error: the response is not JSON (text/html)");
    expect(await messageFor({ status: 200, type: "text/plain", body: "upstream timed out" })).toBe(
      "Parse error: the response is not JSON (text/plain)",
    );
  });

  it("a JSON answer with neither data nor errors: what the client says of it, not a parse error", async () => {
    expect(await messageFor({ status: 200, type: "application/json", body: "{}" })).toBe("Network error: No Content");
  });
});
