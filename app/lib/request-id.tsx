import { createContext, useContext, useState, type ReactNode } from "react";
import { useLocation } from "react-router";

/**
 * The id of the request that rendered this document (its X-Request-Id, in the server's log
 * lines), so an error page can show it: the server render gets it from entry.server, the
 * browser from the page's <meta name="request-id"> (entry.client), so both render the same.
 */
export const DocumentRequestIdContext = createContext<string | null>(null);

const ShownRequestIdContext = createContext<string | null>(null);

/** The meta tag the browser reads the id back from. */
export function RequestIdMeta() {
  const id = useContext(DocumentRequestIdContext);
  return id ? <meta name="request-id" content={id} /> : null;
}

/** The document's request id, in the browser (null when the page has none). */
export function documentRequestId(): string | null {
  return document.querySelector<HTMLMetaElement>('meta[name="request-id"]')?.content || null;
}

/**
 * Offers the document's id to error pages only while the location is the one the document
 * was rendered for: after a client navigation an error comes from another request, whose
 * id the page does not know.
 */
export function RequestIdProvider({ children }: { children: ReactNode }) {
  const id = useContext(DocumentRequestIdContext);
  const { key } = useLocation();
  const [documentKey] = useState(key);
  return <ShownRequestIdContext.Provider value={key === documentKey ? id : null}>{children}</ShownRequestIdContext.Provider>;
}

export const useShownRequestId = () => useContext(ShownRequestIdContext);
