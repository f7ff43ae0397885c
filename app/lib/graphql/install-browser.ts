import type { CombinedError, Operation } from "@urql/core";
import i18next from "i18next";
import { GRAPHQL_PATH } from "../../shared/graphql-path";
import { toastStore } from "../toast/toast-store";
import { createBrowserGraphQL, installBrowserGraphQL } from "./browser-client";
import { errorNotice } from "./error-notice";
import { graphqlErrorMessage } from "./errors";
import { offlineStorageFor } from "./offline-storage";
import { pageHydration } from "../page-hydration";
import { readGraphQLData } from "./ssr-data";

/**
 * Operations whose failure the caller shows itself: route loaders (the error page) and
 * live previews (next to the form), so no toast on top.
 */
export const SILENT_OPERATION = { silent: true } as const;

/** The close code the API's WebSocket sends when its session ends. */
const SESSION_ENDED_CLOSE_CODE = 4401;

/**
 * A failed operation, told to the user as a toast in their language; the protocol text
 * (what the error page would show) goes to the console for whoever debugs it.
 */
export function reportGraphQLError(error: CombinedError, operation: Operation) {
  if (operation.context.silent) return;
  // A live subscription ended because its session did (see onFatalClose below): not a failure.
  if ((error.networkError as { code?: unknown } | undefined)?.code === SESSION_ENDED_CLOSE_CODE) return;
  const operationName = operation.query.definitions.find((definition) => definition.kind === "OperationDefinition")?.name?.value;
  console.warn(`[graphql] ${operationName ?? operation.kind} failed: ${graphqlErrorMessage(error)}`);
  const notice = errorNotice(error, typeof navigator === "undefined" || navigator.onLine);
  // One toast per distinct failure, however many components saw it.
  toastStore.show({ id: `graphql-error:${notice}`, variant: "error", title: i18next.t(notice) });
}

function webSocketUrl(): string {
  const url = new URL(GRAPHQL_PATH, window.location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.href;
}

/**
 * Builds the page's GraphQL client from what the server wrote into it. Returns the JSON
 * the server wrote, which the page renders back unchanged while hydrating.
 */
export function installPageGraphQL(): string | null {
  const { json, data, sessionKey } = readGraphQLData();
  installBrowserGraphQL(
    createBrowserGraphQL({
      initialState: data,
      initialKey: sessionKey,
      offlineStorage: offlineStorageFor,
      holdResultsUntil: pageHydration,
      onError: reportGraphQLError,
      connectWebSocket: async () => {
        const { createWsClient } = await import("./ws-client");
        return createWsClient({
          url: webSocketUrl(),
          onFatalClose: (event) => {
            // 4401: the session ended (logged out here or elsewhere, or expired). Not a failure
            // to report: the log-out says so itself, and the next page shows the signed-out state.
            if (event.code === SESSION_ENDED_CLOSE_CODE) return;
            toastStore.show({
              id: "live-updates-stopped",
              variant: "error",
              title: i18next.t("errors.liveUpdatesStopped"),
              description: `${event.code}${event.reason ? `: ${event.reason}` : ""}`,
            });
          },
        });
      },
    }),
  );
  return json;
}
