import { connect } from "node:net";
import { print } from "graphql";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import { startTestApi, testApis, type TestApi } from "../support/api-server";
import {
  TestHttpWeather2HoursDocument as WEATHER_2_HOURS,
  TestHttpWeather48HoursDocument as WEATHER_48_HOURS,
} from "../support/documents.generated";

// Raw bodies, URLs and frames stay strings where the test is about the wire itself (headers, content types, GET,
// malformed frames); the size-limit test sends typed documents (http-answers.graphql).

let t: TestApi;
beforeAll(async () => {
  t = await startTestApi({ production: true });
});
afterAll(() => t.close());

type ErrorBody = { errors?: Array<{ message: string; extensions?: { code?: string } }> };

describe("/graphql answers over HTTP", () => {
  it("are never stored: private, no-store (the signUp answer carries a token)", async () => {
    const response = await fetch(t.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: `mutation { signUp(email: "cache-${Date.now()}@example.com", password: "a sturdy passphrase") { token } }`,
      }),
    });
    expect(((await response.json()) as { data: { signUp: { token: string } } }).data.signUp.token).toBeTruthy();
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const read = await fetch(`${t.url}?query=${encodeURIComponent("{ me { id } }")}`);
    expect(read.headers.get("cache-control")).toBe("private, no-store");
  });

  it("send HSTS only when a trusted proxy says the client came over HTTPS", async () => {
    const overHttps = await fetch(t.url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-proto": "https" },
      body: JSON.stringify({ query: "{ me { id } }" }),
    });
    expect(overHttps.headers.get("strict-transport-security")).toMatch(/^max-age=\d{7,}/);
    const plain = await fetch(t.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ me { id } }" }),
    });
    expect(plain.headers.get("strict-transport-security")).toBeNull();
  });

  it.each([
    ["text/plain", "{ me { id } }"],
    ["application/xml", "<query/>"],
    [null, "{ me { id } }"],
  ])("refuse a %s body with 415 and a GraphQL error naming the content type", async (contentType, body) => {
    const response = await fetch(t.url, {
      method: "POST",
      headers: contentType ? { "content-type": contentType } : {},
      // fetch would label a string body text/plain itself: a Blob without a type sends none.
      body: contentType ? body : new Blob([body]),
    });
    expect(response.status).toBe(415);
    expect(response.headers.get("content-type")).toMatch(/json/);
    const json = (await response.json()) as ErrorBody;
    expect(json.errors?.[0]?.extensions?.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect(json.errors?.[0]?.message).toMatch(/application\/json/);
  });

  it("answer GET variables that are not JSON with BAD_USER_INPUT naming `variables`", async () => {
    const query = encodeURIComponent("query ($lat: Float!) { weatherAt(latitude: $lat, longitude: 1) { id } }");
    const response = await fetch(`${t.url}?query=${query}&variables=${encodeURIComponent("{lat: 1")}`);
    expect(response.status).toBe(400);
    const json = (await response.json()) as ErrorBody;
    expect(json.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(json.errors?.[0]?.message).toMatch(/variables/);
  });
});

/** What the server answers `raw`, sent as is on one connection (half-closed after it: no more is coming). */
function rawExchange(raw: string): Promise<string> {
  const { hostname, port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(raw));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.on("error", reject);
  });
}

describe("requests Node's HTTP parser refuses", () => {
  it.each([
    ["a 20 KB query string", `GET /graphql?query=${"x".repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`, 431, /too long/],
    [
      "a body shorter than its Content-Length",
      'POST /graphql HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"query":"{',
      400,
      /Content-Length/,
    ],
  ])("get a status and one line of plain text: %s", async (_, raw, status, text) => {
    const answer = await rawExchange(raw);
    const [head, body] = answer.split("\r\n\r\n");
    expect(head!.split("\r\n")[0]).toBe(`HTTP/1.1 ${status} ${status === 431 ? "Request Header Fields Too Large" : "Bad Request"}`);
    expect(head).toMatch(/^Content-Type: text\/plain; charset=utf-8$/m);
    expect(head).toMatch(new RegExp(`^Content-Length: ${Buffer.byteLength(body!)}$`, "m"));
    expect(body).toMatch(text);
    expect(body!.trim().split("\n")).toHaveLength(1);
  });
});

/** A raw graphql-transport-ws socket, acknowledged, with every message it receives. */
async function openSocket(url = t.url) {
  const socket = new WebSocket(url.replace(/^http/, "ws"), "graphql-transport-ws");
  const received: Array<{ type: string; id?: string; payload?: unknown }> = [];
  socket.on("message", (data) => received.push(JSON.parse(String(data))));
  let closeCode: number | null = null;
  socket.on("close", (code) => (closeCode = code));
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  socket.send(JSON.stringify({ type: "connection_init", payload: {} }));
  await expect.poll(() => received.some((message) => message.type === "connection_ack")).toBe(true);
  return { socket, received, closeCode: () => closeCode };
}

describe("operations over the WebSocket", () => {
  it.each([
    ["a syntax error", "{ me { id }", "GRAPHQL_PARSE_FAILED"],
    ["an alias flood", `{ ${Array.from({ length: 50 }, (_, i) => `a${i}: me { id }`).join(" ")} }`, "BAD_USER_INPUT"],
    ["an unknown field", "{ nothing }", "GRAPHQL_VALIDATION_FAILED"],
  ])("answer %s with an error for that operation and keep the socket open", async (_name, query, code) => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const { socket, received, closeCode } = await openSocket();
    try {
      socket.send(JSON.stringify({ id: "bad", type: "subscribe", payload: { query } }));
      await expect.poll(() => received.find((message) => message.id === "bad")?.type).toBe("error");
      const errors = received.find((message) => message.id === "bad")!.payload as Array<{
        message: string;
        extensions?: { code?: string };
      }>;
      expect(errors[0]!.message).toBeTruthy();
      expect(errors[0]!.extensions?.code).toBe(code);

      // The same socket still answers the next operation.
      socket.send(JSON.stringify({ id: "good", type: "subscribe", payload: { query: "{ me { id } }" } }));
      await expect
        .poll(() => received.find((message) => message.id === "good" && message.type === "next")?.payload)
        .toEqual({ data: { me: null } });
      expect(closeCode()).toBeNull();
      expect(logged).not.toHaveBeenCalled();
    } finally {
      logged.mockRestore();
      socket.close();
    }
  });
});

describe("answers over the size limit", () => {
  const api = testApis();

  it("are not sent, over HTTP or the WebSocket: the operation gets an error that says why", async () => {
    const small = await api({ maxAnswerChars: 2_000 });
    const warned = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const overHttp = await small.gql(WEATHER_48_HOURS);
      expect(overHttp.data ?? null).toBeNull();
      expect(overHttp.errors).toEqual([
        {
          message: expect.stringMatching(/^The answer would be larger than 2000 characters and was not sent/),
          extensions: { code: "BAD_USER_INPUT", maxChars: 2000 },
        },
      ]);
      const { socket, received, closeCode } = await openSocket(small.url);
      try {
        socket.send(JSON.stringify({ id: "big", type: "subscribe", payload: { query: print(WEATHER_48_HOURS) } }));
        await expect
          .poll(() => received.find((message) => message.id === "big" && message.type === "next")?.payload)
          .toEqual({
            errors: overHttp.errors,
          });
        expect(closeCode()).toBeNull();
      } finally {
        socket.close();
      }
    } finally {
      warned.mockRestore();
    }
    // Within the limit, the same answer goes out whole.
    expect((await small.gql(WEATHER_2_HOURS)).data).toMatchObject({
      weatherAt: { hourly: [{ id: expect.any(String) }, { id: expect.any(String) }] },
    });
  });
});
