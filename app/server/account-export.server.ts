import type { TypedDocumentNode } from "@urql/core";
import { getOperationAST, print, type ExecutionResult } from "graphql";
import type { RouterContextProvider } from "react-router";
import {
  AccountExportDocument,
  AccountExportMessagesDocument,
  type AccountExportMessagesQuery,
  type AccountExportQuery,
} from "../lib/account-security-documents.generated";
import { graphqlFetchContext } from "../lib/graphql/executor-context";
import { GRAPHQL_PATH } from "../shared/graphql-path";
import { sessionToken } from "./session.server";

/** What the file says it is (docs/export-format.md); the version changes whenever its shape does. */
export const EXPORT_FORMAT = "weatherbot-account-export";
export const EXPORT_VERSION = 1;

type MessagePage = AccountExportMessagesQuery["messages"];

/** A refusal of the API's, by its code: the export answers with the matching status instead of a file. */
export class ExportRefused extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Runs an operation on the API as the session `token` names, to its data; a refusal throws ExportRefused. */
export type ExportQuery = <R, V extends Record<string, unknown>>(document: TypedDocumentNode<R, V>, variables: V) => Promise<R>;

const texts = new WeakMap<object, { query: string; operationName: string | undefined }>();

/**
 * Over the fetch the page's loaders use (the embedded API in this process, or the hosted one: GRAPHQL_URL), with no
 * client and no cache between: a request client keeps every result for the page it renders, and an export of
 * thousands of messages must hold one page of them at a time.
 */
export function exportQuery(fetchApi: typeof fetch, token: string): ExportQuery {
  return async (document, variables) => {
    let text = texts.get(document);
    if (!text) texts.set(document, (text = { query: print(document), operationName: getOperationAST(document)?.name?.value }));
    const response = await fetchApi(`http://weatherbot.internal${GRAPHQL_PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ ...text, variables }),
    });
    const result = (await response.json()) as ExecutionResult<never>;
    const [error] = result.errors ?? [];
    if (error || !result.data) {
      throw new ExportRefused(String(error?.extensions?.code ?? "INTERNAL_SERVER_ERROR"), error?.message ?? `HTTP ${response.status}`);
    }
    return result.data;
  };
}

/** The file's opening: everything but the messages, and the opening of their list. */
function opening(head: AccountExportQuery & { me: NonNullable<AccountExportQuery["me"]> }, exportedAt: Date): string {
  const { id, email, createdAt, settings, places, sessions, pushEndpoints } = head.me;
  const document = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: exportedAt.toISOString(),
    account: { id, email, createdAt },
    settings,
    places,
    alertRules: head.alertRules,
    briefings: head.briefings,
    pushSubscriptions: pushEndpoints,
    sessions,
  };
  const text = JSON.stringify(document);
  return `${text.slice(0, -1)},"messages":[`;
}

/**
 * The account's export as a stream: the opening, then the messages a page at a time, newest first, each asked for
 * only when the one before has been taken by the reader (so memory holds one page, whatever the inbox's size), then
 * the closing. One message a line. A page that cannot be read ends the stream with an error (the file is cut short,
 * and is not valid JSON: never a complete-looking file with messages missing).
 */
export function exportStream(
  head: AccountExportQuery & { me: NonNullable<AccountExportQuery["me"]> },
  firstPage: MessagePage,
  nextPage: (after: string) => Promise<MessagePage>,
  exportedAt: Date,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let page: MessagePage | null = firstPage;
  let opened = false;
  let written = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!opened) {
          opened = true;
          controller.enqueue(encoder.encode(opening(head, exportedAt)));
          return;
        }
        const current: MessagePage = page!;
        const lines = current.edges.map((message) => `${written++ === 0 ? "" : ","}\n${JSON.stringify(message)}`).join("");
        if (current.hasMore && current.endCursor) {
          controller.enqueue(encoder.encode(lines));
          page = await nextPage(current.endCursor);
        } else {
          controller.enqueue(encoder.encode(`${lines}\n]}\n`));
          controller.close();
        }
      },
    },
    // One chunk waits for the reader at most: the next page is asked for when it is taken.
    { highWaterMark: 1 },
  );
}

/** The status of an answer to a refusal (what the API's code means for a download). */
const STATUS: Record<string, number> = { UNAUTHENTICATED: 401, FORBIDDEN: 403, RATE_LIMITED: 429, SERVICE_UNAVAILABLE: 503 };

/**
 * GET /resources/account-export: the signed-in account's data as one JSON file (docs/export-format.md), for the
 * session the cookie names and nobody else. A request another site started is refused (its answer could not be read
 * there, but it would download the file onto the user's machine unasked).
 */
export async function accountExportResponse(
  request: Request,
  context: Readonly<RouterContextProvider>,
  say: (problem: "signedOut" | "failed" | "crossSite") => string,
  now: () => Date = () => new Date(),
): Promise<Response> {
  const refuse = (status: number, problem: Parameters<typeof say>[0]) =>
    new Response(say(problem), { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  const site = request.headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") return refuse(403, "crossSite");
  const token = sessionToken(request);
  if (!token) return refuse(401, "signedOut");
  const ask = exportQuery(context.get(graphqlFetchContext), token);
  try {
    const head = await ask(AccountExportDocument, {});
    if (!head.me) return refuse(401, "signedOut");
    // The first page before the answer starts: what the API refuses then still gets its status.
    const first = await ask(AccountExportMessagesDocument, { after: null });
    const exportedAt = now();
    const body = exportStream(
      { ...head, me: head.me },
      first.messages,
      async (after) => (await ask(AccountExportMessagesDocument, { after })).messages,
      exportedAt,
    );
    return new Response(body, {
      status: 200,
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="weatherbot-export-${exportedAt.toISOString().slice(0, 10)}.json"`,
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  } catch (error) {
    if (!(error instanceof ExportRefused)) throw error;
    return refuse(STATUS[error.code] ?? 500, error.code === "UNAUTHENTICATED" ? "signedOut" : "failed");
  }
}
