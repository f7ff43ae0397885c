import { request } from "node:https";
import type { TypedDocumentNode } from "@urql/core";
import { print } from "graphql";
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";

export type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

export type RequestOptions = {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** The client's own address (any of 127.0.0.0/8): how the proxy sees this client. */
  localAddress?: string;
};

/** HTTPS to the proxy, trusting only the test's certificate; a fresh connection each time. */
export function httpsClient(baseUrl: string, ca: string) {
  function send(pathname: string, options: RequestOptions = {}): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = request(
        new URL(pathname, baseUrl),
        {
          method: options.method ?? "GET",
          headers: options.headers,
          ca,
          agent: false,
          localAddress: options.localAddress,
          timeout: 30_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
          res.on("error", reject);
        },
      );
      req.on("timeout", () => req.destroy(new Error(`${pathname}: no answer within 30 s`)));
      req.on("error", reject);
      req.end(options.body);
    });
  }

  type GqlResult<T> = { data?: T; errors?: Array<{ message: string; extensions?: { code?: string } }>; answer: Answer };

  async function gql<T, V extends Record<string, unknown>>(
    document: TypedDocumentNode<T, V>,
    variables: V = {} as V,
    options: { token?: string; localAddress?: string; headers?: Record<string, string> } = {},
  ): Promise<GqlResult<T>> {
    const query = print(document);
    const answer = await send("/graphql", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...options.headers,
      },
      body: JSON.stringify({ query, variables }),
      localAddress: options.localAddress,
    });
    let parsed: Omit<GqlResult<T>, "answer">;
    try {
      parsed = JSON.parse(answer.body) as Omit<GqlResult<T>, "answer">;
    } catch {
      throw new Error(`/graphql answered ${answer.status} with no JSON: ${answer.body.slice(0, 300)}`);
    }
    return { ...parsed, answer };
  }

  /** A graphql-ws client over wss:// through the proxy; `onUpgrade` gets the 101 answer's headers. */
  function ws(options: { token?: string; onUpgrade?: (headers: Record<string, string | string[] | undefined>) => void }): Client {
    class TrustingWebSocket extends WebSocket {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols, { ca });
        this.on("upgrade", (res) => options.onUpgrade?.(res.headers));
      }
    }
    return createClient({
      url: `${baseUrl.replace(/^https/, "wss")}/graphql`,
      webSocketImpl: TrustingWebSocket,
      connectionParams: options.token ? { authorization: `Bearer ${options.token}` } : {},
      retryAttempts: 0,
      lazy: false,
    });
  }

  return { send, gql, ws };
}

export type HttpsClient = ReturnType<typeof httpsClient>;

/** The cookies a response sets, whole (attributes included). */
export const setCookies = (answer: Answer): string[] => {
  const header = answer.headers["set-cookie"];
  return Array.isArray(header) ? header : header ? [header] : [];
};

/** Polls `check` until it holds (bounded), for states that take a moment: never a fixed wait. */
export async function waitFor<T>(
  check: () => Promise<T | false | undefined | null> | T | false | undefined | null,
  what: string,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${lastError ? `: ${String(lastError)}` : ""}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
