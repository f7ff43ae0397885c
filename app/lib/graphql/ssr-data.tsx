import type { SSRData } from "@urql/core";
import { createContext, useContext } from "react";

const ELEMENT_ID = "graphql-data";

/** The page's serialised GraphQL results: set by entry.server, and by entry.client from the page itself. */
export const GraphQLDataContext = createContext<string | null>(null);

/**
 * What urql's ssr exchange keeps as JSON text. The page carries these as JSON themselves: as
 * strings inside JSON every quote in them would be escaped again (a tenth of a signed-in page).
 */
const JSON_TEXT_FIELDS: ReadonlySet<string> = new Set(["data", "extensions"]);

/** JSON text made safe inside a <script> element: no `</script>` can close it early. */
const scriptSafe = (json: string) => (json.includes("<") ? json.replace(/</g, "\\u003c") : json);

/**
 * JSON that is safe inside a <script> element. Each piece is escaped on its own, and only when it holds a `<`
 * (rare): the answers are most of a signed-in page's 70 KB of data, and a pass over their joined text cost more.
 */
export function serializeGraphQLData(data: SSRData): string {
  let json = "";
  for (const key in data) {
    const result = data[key]!;
    let fields = "";
    for (const field in result) {
      const value = result[field as keyof typeof result];
      if (value === undefined) continue;
      const text = JSON_TEXT_FIELDS.has(field) ? (value as string) : JSON.stringify(value);
      fields += `${fields ? "," : ""}${JSON.stringify(field)}:${scriptSafe(text)}`;
    }
    json += `${json ? "," : ""}${scriptSafe(JSON.stringify(key))}:{${fields}}`;
  }
  return `{${json}}`;
}

/** The page's JSON back into what urql's ssr exchange restores (serializeGraphQLData's inverse). */
export function parseGraphQLData(json: string): SSRData {
  const results = JSON.parse(json) as Record<string, Record<string, unknown>>;
  const data: SSRData = {};
  for (const [key, result] of Object.entries(results)) {
    const restored: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(result)) restored[field] = JSON_TEXT_FIELDS.has(field) ? JSON.stringify(value) : value;
    data[key] = restored;
  }
  return data;
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
    return { json, data: parseGraphQLData(json), sessionKey };
  } catch (error) {
    // A damaged payload costs a refetch, not the page.
    console.warn("The page's GraphQL data could not be read:", error);
    return { json, data: undefined, sessionKey };
  }
}
