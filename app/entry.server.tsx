import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { InlineStylesheetContext } from "./components/inline-stylesheet";
import { contentSecurityPolicy, createNonce } from "./server/csp.server";
import { serverEnv } from "./server/env.server";
import { requestGraphQLContext } from "./server/graphql/request-client.server";
import { GraphQLClientSourceContext } from "./lib/graphql/provider";
import { GraphQLDataContext, serializeGraphQLData } from "./lib/graphql/ssr-data";
import { getI18n } from "./server/i18n/middleware.server";
import { APP_STYLESHEET } from "./server/inline-stylesheet.server";
import { NonceContext } from "./lib/nonce";
import { DocumentRequestIdContext } from "./lib/request-id";
import { logRequestError, requestLogContext } from "./lib/request-log-context";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const nonce = createNonce();
  // The loaders have run: what they fetched goes into the page for the browser's cache,
  // and the render reads the same client, so components see that data at once.
  const graphql = loadContext.get(requestGraphQLContext);
  const graphqlData = graphql ? serializeGraphQLData(graphql.ssr.extractData()) : null;
  const clientSource = graphql ? () => ({ client: graphql.client, settled: true }) : null;
  const requestLog = loadContext.get(requestLogContext);

  // The element is built before the stream and its abort timer exist (a timer armed
  // first could fire into an unassigned `abort` and take the process down).
  const element = (
    <NonceContext.Provider value={nonce}>
      <DocumentRequestIdContext.Provider value={requestLog?.requestId ?? null}>
        <InlineStylesheetContext.Provider value={APP_STYLESHEET}>
          <GraphQLClientSourceContext.Provider value={clientSource}>
            <GraphQLDataContext.Provider value={graphqlData}>
              <I18nextProvider i18n={getI18n(loadContext)}>
                <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
              </I18nextProvider>
            </GraphQLDataContext.Provider>
          </GraphQLClientSourceContext.Provider>
        </InlineStylesheetContext.Provider>
      </DocumentRequestIdContext.Provider>
    </NonceContext.Provider>
  );

  /*
   * The page is answered once everything has rendered: its data was loaded before the render
   * began, so answering at the shell would only send the same bytes sooner by a few milliseconds,
   * and readers without scripts would get parts out of their place.
   */
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let status = responseStatusCode;
    let abortTimer: NodeJS.Timeout | undefined = undefined;
    const { pipe, abort } = renderToPipeableStream(element, {
      nonce,
      // Sent whole, the page needs no part outlined: React would otherwise move every finished Suspense boundary over
      // 12,800 bytes (the dashboard) out of its place into a hidden div and an inline script that puts it back, so
      // the page shows its skeleton until that script runs and readers without scripts never see their places.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onShellReady() {
        shellRendered = true;
        status = responseStatusCode;
      },
      onAllReady() {
        // Everything has rendered, so React writes the whole page now, in its 4 KB views: gathered into one
        // buffer, the page is one body with its length, which @react-router/express writes to the socket in
        // one go (streamed, each view took its own trip through a web stream, the socket and its drain).
        clearTimeout(abortTimer);
        const views: Uint8Array[] = [];
        const body = new Writable({
          write(view: Uint8Array, _encoding, callback) {
            views.push(view);
            callback();
          },
          final(callback) {
            const page = Buffer.concat(views);
            responseHeaders.set("Content-Length", String(page.byteLength));
            resolve(new Response(page, { headers: responseHeaders, status }));
            callback();
          },
        });
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        // Pages are never cached by shared caches and always revalidated; a signed-in user's
        // page is not stored at all, so the next person at this browser cannot bring it back.
        responseHeaders.set("Cache-Control", graphql?.signedIn ? "private, no-store" : "private, no-cache");
        if (serverEnv().NODE_ENV !== "development") {
          const { POSTHOG_KEY, POSTHOG_HOST } = serverEnv();
          responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(nonce, POSTHOG_KEY ? [POSTHOG_HOST] : []));
        }
        pipe(body);
      },
      onShellError(error: unknown) {
        clearTimeout(abortTimer);
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        // Errors in a part rendered after the shell (that part is then rendered in the browser)
        // are logged here; earlier ones reach onShellError.
        if (shellRendered) logRequestError(requestLog, "[ssr] error while rendering the page:", error);
      },
    });
    abortTimer = setTimeout(abort, streamTimeout + 1000);
  });
}

/**
 * Loader data (`.data`) is what a page shows, a signed-in person's email and places included:
 * no cache keeps it. The service worker's offline copies do not depend on this (its
 * network-first routes store what they fetch whatever the headers say).
 */
export function handleDataRequest(response: Response): Response {
  response.headers.set("Cache-Control", "private, no-store");
  return response;
}

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  // Aborted requests (the user navigated away) are not failures worth logging.
  if (request.signal.aborted) return;
  logRequestError(context.get(requestLogContext), `[ssr] ${request.method} ${new URL(request.url).pathname}:`, error);
};
