/**
 * A small closed-loop HTTP/1.1 load generator: `connections` keep-alive sockets each send
 * one request after another for `durationMs`. Reports requests per second and latency
 * percentiles. Everything stays on loopback.
 *
 * It writes a request it encoded once and reads answers with a minimal parser, because on
 * a machine of two cores it shares the CPU with the server it measures: node's HTTP client
 * cost about as much per request as the server did, and latencies then measured its queue.
 */
import { connect, type Socket } from "node:net";

export type LoadResult = { requests: number; errors: number; rps: number; p50: number; p99: number };

export type ParsedResponse = { status: number; body: Buffer };

const HEADER_END = Buffer.from("\r\n\r\n");
const CRLF = Buffer.from("\r\n");

/**
 * Splits a keep-alive connection's bytes into responses (Content-Length or chunked
 * bodies), however the bytes arrive. Throws on anything else: a benchmark should not
 * guess.
 */
export class ResponseReader {
  #buffer: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): ParsedResponse[] {
    this.#buffer = this.#buffer.length ? Buffer.concat([this.#buffer, chunk]) : chunk;
    const responses: ParsedResponse[] = [];
    for (let response = this.#next(); response; response = this.#next()) responses.push(response);
    return responses;
  }

  #next(): ParsedResponse | null {
    const headerEnd = this.#buffer.indexOf(HEADER_END);
    if (headerEnd === -1) return null;
    const head = this.#buffer.toString("latin1", 0, headerEnd);
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1]);
    if (!status) throw new Error(`Not an HTTP/1.1 response: ${head.slice(0, 40)}`);
    const start = headerEnd + HEADER_END.length;
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (length) {
      const end = start + Number(length[1]);
      if (this.#buffer.length < end) return null;
      return this.#take(status, this.#buffer.subarray(start, end), end);
    }
    if (!/\r\ntransfer-encoding:\s*chunked/i.test(head)) throw new Error("A response with neither Content-Length nor chunked encoding");
    const chunks: Buffer[] = [];
    let at = start;
    for (;;) {
      const lineEnd = this.#buffer.indexOf(CRLF, at);
      if (lineEnd === -1) return null;
      const size = parseInt(this.#buffer.toString("latin1", at, lineEnd), 16);
      const dataEnd = lineEnd + CRLF.length + size;
      if (this.#buffer.length < dataEnd + CRLF.length) return null;
      if (size === 0) return this.#take(status, Buffer.concat(chunks), dataEnd + CRLF.length);
      chunks.push(this.#buffer.subarray(lineEnd + CRLF.length, dataEnd));
      at = dataEnd + CRLF.length;
    }
  }

  #take(status: number, body: Buffer, end: number): ParsedResponse {
    const response = { status, body: Buffer.from(body) };
    this.#buffer = this.#buffer.subarray(end);
    return response;
  }
}

/** The request, encoded once: a POST of `body`, or a GET (`body` then empty). */
export function encodeRequest(url: URL, body: string, headers: Record<string, string>, method: "GET" | "POST" = "POST"): Buffer {
  const lines = [
    `${method} ${url.pathname}${url.search} HTTP/1.1`,
    `Host: ${url.host}`,
    ...(method === "POST" ? ["Content-Type: application/json", `Content-Length: ${Buffer.byteLength(body)}`] : []),
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return Buffer.from(`${lines.join("\r\n")}\r\n\r\n${method === "POST" ? body : ""}`);
}

const ERRORS = Buffer.from('"errors"');

/** An answer that counts as an error: by default anything but a 200, or GraphQL errors in it. */
export type ErrorTest = (response: ParsedResponse) => boolean;
const graphqlError: ErrorTest = (response) => response.status !== 200 || response.body.includes(ERRORS);

/** Where each client's next request comes from (null when there is none left), and for how long. */
type RequestSource = { next(): Buffer | null; durationMs: number };

/**
 * `prime`: every connection first gets one answer, and the measurement starts when all have.
 * A busy node server takes up new connections' first requests late, some not before the others
 * stop (seen at 50 connections opened at once: answers waited the whole round); primed, every
 * connection is in use from the start and the latencies are those of the steady state.
 */
async function drive(
  url: URL,
  source: RequestSource,
  connections: number,
  { isError = graphqlError, prime = false }: { isError?: ErrorTest; prime?: boolean } = {},
): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let started = performance.now();
  let endsAt = prime ? Infinity : started + source.durationMs;
  /** The primed connections' next sends, held until every connection is primed. */
  const held: Array<() => void> = [];

  function client(): Promise<void> {
    return new Promise((resolve) => {
      let socket: Socket;
      let sentAt = 0;
      let reader: ResponseReader;
      let finished = false;
      let priming = prime;
      const finish = () => {
        finished = true;
        socket.end(resolve);
      };
      const send = () => {
        const request = performance.now() < endsAt ? source.next() : null;
        if (!request) return finish();
        sentAt = performance.now();
        socket.write(request);
      };
      const open = () => {
        reader = new ResponseReader();
        socket = connect({ host: url.hostname, port: Number(url.port), noDelay: true }, send);
        socket.on("data", (chunk: Buffer) => {
          for (const response of reader.push(chunk)) {
            if (isError(response)) errors++;
            if (!priming) {
              latencies.push(performance.now() - sentAt);
              send();
              continue;
            }
            priming = false;
            held.push(send);
            if (held.length < connections) continue;
            started = performance.now();
            endsAt = started + source.durationMs;
            for (const go of held.splice(0)) go();
          }
        });
        // A connection lost before the end is an error; the client opens another.
        socket.on("error", () => {});
        socket.on("close", () => {
          if (finished) return resolve();
          errors++;
          open();
        });
      };
      open();
    });
  }

  await Promise.all(Array.from({ length: connections }, client));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { requests: latencies.length, errors, rps: latencies.length / elapsed, p50: at(0.5), p99: at(0.99) };
}

/** The same request over and over on every connection, for `durationMs`. */
export async function runLoad(options: {
  url: string;
  body: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  connections: number;
  durationMs: number;
  isError?: ErrorTest;
  /** Measure only once every connection has had an answer (see drive). */
  prime?: boolean;
}): Promise<LoadResult> {
  const url = new URL(options.url);
  const request = encodeRequest(url, options.body, options.headers ?? {}, options.method);
  return drive(url, { next: () => request, durationMs: options.durationMs }, options.connections, options);
}

/** Each request once, shared out among the connections as they come free (a cold path: nothing repeats). */
export async function runEach(options: {
  url: string;
  requests: ReadonlyArray<{ body: string; headers?: Record<string, string> }>;
  connections: number;
}): Promise<LoadResult> {
  const url = new URL(options.url);
  const encoded = options.requests.map(({ body, headers }) => encodeRequest(url, body, headers ?? {}));
  let index = 0;
  return drive(url, { next: () => encoded[index++] ?? null, durationMs: Infinity }, options.connections);
}
