import type { SSRData } from "@urql/core";
import { createContext, useContext } from "react";

const ELEMENT_ID = "graphql-data";

/** The page's serialised GraphQL results: set by entry.server, and by entry.client from the page itself. */
export const GraphQLDataContext = createContext<string | null>(null);

/** JSON that is safe inside a <script> element (no `</script>` can close it early). */
export function serializeGraphQLData(data: SSRData): string {
  return JSON.stringify(data).replace(/</g, "\\u003c");
}

/**
 * Writes the results into the page as inert JSON (not executed, so it needs no CSP nonce).
 * The browser renders the very same text back, so hydration matches.
 */
export function GraphQLDataScript({ sessionKey }: { sessionKey: string | null | undefined }) {
  const json = useContext(GraphQLDataContext);
  if (json === null) return null;
  return <script id={ELEMENT_ID} type="application/json" data-session={sessionKey ?? ""} dangerouslySetInnerHTML={{ __html: json }} />;
}

/** Reads what the server wrote, and for which session ("" = signed out) (browser only). */
export function readGraphQLData(): { json: string | null; data: SSRData | undefined; sessionKey: string | null | undefined } {
  const element = document.getElementById(ELEMENT_ID);
  const json = element?.textContent ?? null;
  const session = element?.dataset.session;
  const sessionKey = session === undefined ? undefined : session || null;
  if (json === null) return { json, data: undefined, sessionKey };
  try {
    return { json, data: JSON.parse(json) as SSRData, sessionKey };
  } catch (error) {
    // A damaged payload costs a refetch, not the page.
    console.warn("The page's GraphQL data could not be read:", error);
    return { json, data: undefined, sessionKey };
  }
}
