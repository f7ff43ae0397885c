import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it, vi } from "vitest";
import { encodedText, pageBodyOf, pageCollector, pageResponse, type EncodedText } from "~/lib/page-body.server";
import { requestOf, sendResponse } from "~/server/page-requests.server";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

const listen = (app: express.Express) =>
  new Promise<string>((resolve) => {
    const server = createServer(app);
    servers.push(server);
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });

/** An app that answers every request with `answer()`, counting how Express's response was written to. */
function answering(answer: () => Response) {
  const calls = { write: 0, end: 0 };
  const app = express();
  app.use((_req, res, next) => {
    const { write, end } = res;
    res.write = function (this: express.Response, ...args: Parameters<typeof write>) {
      calls.write++;
      return write.apply(this, args);
    } as typeof write;
    res.end = function (this: express.Response, ...args: Parameters<typeof end>) {
      calls.end++;
      return end.apply(this, args);
    } as typeof end;
    next();
  });
  app.get("/", (_req, res, next) => sendResponse(res, answer()).catch(next));
  return { app, calls };
}

describe("a page's answer", () => {
  it("is written to the socket in one piece, with its status and every header", async () => {
    const html = `<!DOCTYPE html><p>${"Ünïcödé weather ☀ ".repeat(2_000)}</p>`;
    const body = Buffer.from(html);
    const headers = new Headers({ "Content-Type": "text/html; charset=utf-8", "Content-Length": String(body.byteLength) });
    headers.append("Set-Cookie", "a=1; Path=/");
    headers.append("Set-Cookie", "b=2; Path=/");
    const { app, calls } = answering(() => pageResponse(body, { status: 404, headers }));
    const response = await fetch(await listen(app));

    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    expect(await response.text()).toBe(html);
    // Not read back out of a web stream chunk by chunk: one end() with the bytes.
    expect(calls).toEqual({ write: 0, end: 1 });
  });

  it("keeps its bytes beside the Response, for no other Response", () => {
    const body = Buffer.from("<p>page</p>");
    expect(pageBodyOf(pageResponse(body, {}))).toBe(body);
    expect(pageBodyOf(new Response("<p>page</p>"))).toBeUndefined();
  });

  it("of any other kind (data, a resource) is streamed as it comes", async () => {
    const parts = ["one,", "two,", "three"];
    const { app, calls } = answering(
      () =>
        new Response(
          new ReadableStream({
            pull(controller) {
              const part = parts.shift();
              if (part === undefined) controller.close();
              else controller.enqueue(new TextEncoder().encode(part));
            },
          }),
          { headers: { "Content-Type": "text/x-script" } },
        ),
    );
    const response = await fetch(await listen(app));
    expect(await response.text()).toBe("one,two,three");
    expect(calls.write).toBe(3);
  });

  it("without a body ends the answer (a redirect)", async () => {
    const { app } = answering(() => new Response(null, { status: 302, headers: { Location: "/settings" } }));
    const response = await fetch(await listen(app), { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/settings");
  });
});

describe("the request React Router is handed", () => {
  function seenBy(trustProxy: boolean) {
    const seen: Request[] = [];
    const app = express();
    app.set("trust proxy", trustProxy);
    app.all("/{*splat}", (req, res) => {
      seen.push(requestOf(req, res));
      res.status(204).end();
    });
    return { app, seen };
  }

  it("has the address the browser asked for, with its method and headers", async () => {
    const { app, seen } = seenBy(false);
    const base = await listen(app);
    await fetch(`${base}/settings?section=account`, {
      headers: { "Accept-Language": "fr-FR", "X-Forwarded-Host": "evil.example:444" },
    });
    const [request] = seen;
    expect(request!.url).toBe(`${base}/settings?section=account`);
    expect(request!.method).toBe("GET");
    expect(request!.headers.get("accept-language")).toBe("fr-FR");
  });

  it("takes the host a trusted proxy names", async () => {
    const { app, seen } = seenBy(true);
    await fetch(`${await listen(app)}/`, { headers: { "X-Forwarded-Host": "weather.example:8443", "X-Forwarded-Proto": "https" } });
    expect(seen[0]!.url).toBe("https://weather.example:8443/");
  });

  it("is aborted when the browser goes away before its answer", async () => {
    let received: (request: Request) => void = () => {};
    const handed = new Promise<Request>((resolve) => (received = resolve));
    const app = express();
    // Never answered: the browser leaves first.
    app.get("/", (req, res) => received(requestOf(req, res)));
    const client = httpRequest(`${await listen(app)}/`);
    client.on("error", () => {});
    client.end();
    const request = await handed;
    expect(request.signal.aborted).toBe(false);
    const aborted = new Promise((resolve) => request.signal.addEventListener("abort", resolve));
    client.destroy();
    await aborted;
    expect(request.signal.aborted).toBe(true);
  });
});

describe("the page's collector", () => {
  const collect = (known: EncodedText, write: (page: NodeJS.WritableStream) => void) =>
    new Promise<Buffer>((resolve) => {
      const page = pageCollector(known, resolve);
      write(page);
      page.end();
    });

  it("gives the page whole, bytes and strings in order, and encodes the text it knows only once", async () => {
    const stylesheet = encodedText(`:root{--sun:"☀"}${"p{margin:0}".repeat(4_000)}`);
    const encode = vi.spyOn(Buffer.prototype, "write");
    const body = await collect(stylesheet, (page) => {
      page.write(new TextEncoder().encode("<html><head><style>"));
      page.write(stylesheet.text);
      page.write("</style></head><body>Köln ");
      page.write(stylesheet.text);
    });
    expect(body.toString("utf8")).toBe(`<html><head><style>${stylesheet.text}</style></head><body>Köln ${stylesheet.text}`);
    // Only the other text was encoded.
    expect(encode.mock.calls.map(([text]) => text)).toEqual(["</style></head><body>Köln "]);
  });
});
