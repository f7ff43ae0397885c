import pRetry from "p-retry";
import { FeedError } from "./feed-error.server";

export type FetchBodyOptions = {
  fetch: typeof fetch;
  /** For the whole exchange: headers and body. */
  timeoutMs: number;
  /** The most bytes read; a longer body is refused (its Content-Length first, else while it streams). */
  maxBytes: number;
  accept: string;
  userAgent: string;
  /** Tries for a refused connection, 429 or 5xx (not for a timeout: a slow service is not helped by asking again at once). */
  attempts: number;
  retryDelayMs: number;
  /** Names the service in error messages. */
  service: string;
};

export type FetchedBody = { bytes: Uint8Array; contentType: string | null };

/** One GET: the body's bytes, or a FeedError that says what went wrong. */
async function fetchOnce(url: URL, options: FetchBodyOptions): Promise<FetchedBody> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let response: Response;
  try {
    response = await options.fetch(url, {
      signal,
      // A redirect would leave the configured service: not followed.
      redirect: "manual",
      headers: { accept: options.accept, "user-agent": options.userAgent },
    });
  } catch (error) {
    throw networkError(error, signal, options);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new FeedError(`${options.service} answered ${response.status}`, "http-error", response.status);
  }
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > options.maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge(options);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    const reader = response.body?.getReader();
    for (let next = await reader?.read(); next && !next.done; next = await reader!.read()) {
      total += next.value.byteLength;
      if (total > options.maxBytes) {
        await reader!.cancel().catch(() => {});
        throw tooLarge(options);
      }
      chunks.push(next.value);
    }
  } catch (error) {
    if (error instanceof FeedError) throw error;
    throw networkError(error, signal, options);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { bytes, contentType: response.headers.get("content-type") };
}

function tooLarge(options: FetchBodyOptions) {
  return new FeedError(`${options.service} sent a body over ${options.maxBytes} bytes; refused`, "too-large");
}

function networkError(error: unknown, signal: AbortSignal, options: FetchBodyOptions): FeedError {
  if (signal.aborted) return new FeedError(`${options.service} did not answer within ${options.timeoutMs} ms`, "timeout");
  const cause = (error as { cause?: { code?: string } }).cause?.code;
  const message = error instanceof Error ? error.message : String(error);
  return new FeedError(`${options.service} could not be reached: ${message}${cause ? ` (${cause})` : ""}`, "unreachable");
}

const mayRetry = (error: unknown) =>
  error instanceof FeedError && (error.reason === "unreachable" || error.status === 429 || (error.status ?? 0) >= 500);

/** A GET with a timeout, a size cap, and another try after a refused connection, 429 or 5xx. */
export function fetchBody(url: URL, options: FetchBodyOptions): Promise<FetchedBody> {
  return pRetry(() => fetchOnce(url, options), {
    retries: Math.max(0, options.attempts - 1),
    minTimeout: options.retryDelayMs,
    factor: 2,
    randomize: true,
    shouldRetry: ({ error }) => mayRetry(error),
  });
}
