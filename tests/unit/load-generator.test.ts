import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { encodeRequest, ResponseReader, runEach, runLoad } from "../../scripts/bench/load";

const text = (responses: Array<{ status: number; body: Buffer }>) => responses.map(({ status, body }) => [status, body.toString()]);

describe("the benchmark's response reader", () => {
  it("reads Content-Length and chunked bodies, however the bytes are split", () => {
    const wire = Buffer.from(
      'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{"data":{}}' +
        'HTTP/1.1 502 Bad Gateway\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{"er\r\n9\r\nrors":[]}\r\n0\r\n\r\n' +
        "HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n",
    );
    const expected = [
      [200, '{"data":{}}'],
      [502, '{"errors":[]}'],
      [200, ""],
    ];
    expect(text(new ResponseReader().push(wire))).toEqual(expected);
    for (const size of [1, 3, 7, 64]) {
      const reader = new ResponseReader();
      const responses = [];
      for (let at = 0; at < wire.length; at += size) responses.push(...reader.push(wire.subarray(at, at + size)));
      expect(text(responses), `in pieces of ${size} bytes`).toEqual(expected);
    }
  });

  it("refuses what it cannot frame", () => {
    expect(() => new ResponseReader().push(Buffer.from("SSH-2.0-OpenSSH\r\n\r\n"))).toThrow("Not an HTTP/1.1 response");
    expect(() => new ResponseReader().push(Buffer.from("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nbody"))).toThrow(
      "neither Content-Length nor chunked",
    );
  });

  it("encodes one POST with its body's length in bytes", () => {
    expect(encodeRequest(new URL("http://127.0.0.1:8080/graphql?x=1"), '{"q":"é"}', { authorization: "Bearer t" }).toString()).toBe(
      'POST /graphql?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/json\r\nContent-Length: 10\r\nauthorization: Bearer t\r\n\r\n{"q":"é"}',
    );
  });

  it("encodes a GET with no body", () => {
    expect(encodeRequest(new URL("http://127.0.0.1:8080/?x=1"), "", { cookie: "s=t" }, "GET").toString()).toBe(
      "GET /?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\ncookie: s=t\r\n\r\n",
    );
  });

  it("counts answers, and errors (non-200 or GraphQL errors), against a real server", async () => {
    let served = 0;
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        served++;
        if (served % 10 === 0) res.writeHead(200, { "content-type": "application/json" }).end('{"errors":[{"message":"x"}]}');
        else if (served % 10 === 5) res.writeHead(500).end();
        else res.writeHead(200, { "content-type": "application/json" }).end('{"data":{"hello":"world"}}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const result = await runLoad({ url: `http://127.0.0.1:${port}/graphql`, body: "{}", connections: 4, durationMs: 300 });
      expect(result.requests).toBe(served);
      expect(result.requests).toBeGreaterThan(20);
      expect(result.errors).toBe(Math.floor(served / 10) + Math.floor((served + 5) / 10));
      expect(result.p99).toBeGreaterThanOrEqual(result.p50);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("the benchmark's page load", () => {
  it("sends GETs and counts the answers its own test refuses as errors", async () => {
    let served = 0;
    const methods = new Set<string>();
    const server = createServer((req, res) => {
      methods.add(`${req.method} ${req.url} ${req.headers.cookie}`);
      served++;
      // Every fourth a page cut short: a 200, but not a whole page.
      res.writeHead(200, { "content-type": "text/html" }).end(served % 4 === 0 ? "<html><body>" : "<html><body></body></html>");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const result = await runLoad({
        url: `http://127.0.0.1:${port}/`,
        method: "GET",
        body: "",
        headers: { cookie: "s=t" },
        connections: 3,
        durationMs: 300,
        isError: ({ status, body }) => status !== 200 || !body.includes("</html>"),
      });
      expect([...methods]).toEqual(["GET / s=t"]);
      expect(result.requests).toBe(served);
      expect(result.errors).toBe(Math.floor(served / 4));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("the benchmark's primed load", () => {
  it("measures only once every connection has had its first answer", async () => {
    let served = 0;
    let connected = 0;
    // Each connection's first answer comes late (as a busy server takes up a new connection), later for later ones,
    // and says it is a first answer: which answers were measured is then a count, not a matter of time.
    const server = createServer((req, res) => {
      served++;
      const socket = req.socket as typeof req.socket & { answered?: boolean };
      const first = !socket.answered;
      const delay = first ? 1000 + 50 * connected++ : 0;
      socket.answered = true;
      setTimeout(() => res.writeHead(200, { "content-type": "text/html" }).end(first ? "<html>first</html>" : "<html></html>"), delay);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const load = {
        url: `http://127.0.0.1:${port}/`,
        method: "GET" as const,
        body: "",
        connections: 4,
        durationMs: 300,
        isError: ({ body }: { body: Buffer }) => body.includes("first"),
      };
      const primed = await runLoad({ ...load, prime: true });
      // The four first answers are checked (each an error by this test's rule) but not measured.
      expect(primed.requests).toBe(served - 4);
      expect(primed.errors).toBe(4);
      expect(primed.p99).toBeLessThan(1000);
      // Its clock starts after the first answers (over a second): measured, it ran about its 300 ms.
      expect(primed.requests / primed.rps).toBeLessThan(0.9);
      served = 0;
      connected = 0;
      const unprimed = await runLoad(load);
      expect(unprimed.requests).toBe(served);
      expect(unprimed.errors).toBe(4);
      expect(unprimed.p99).toBeGreaterThanOrEqual(1000);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("the benchmark's cold path", () => {
  it("sends each request exactly once, spread over the connections", async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(String(req.headers.authorization));
      req.resume();
      req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end('{"data":{}}'));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const requests = Array.from({ length: 57 }, (_, i) => ({ body: "{}", headers: { authorization: `Bearer u${i}` } }));
      const result = await runEach({ url: `http://127.0.0.1:${port}/graphql`, requests, connections: 5 });
      expect(result).toMatchObject({ requests: 57, errors: 0 });
      expect(seen.sort()).toEqual(requests.map(({ headers }) => headers.authorization).sort());
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
