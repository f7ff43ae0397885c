import { createContext, useContext, useState } from "react";

/**
 * The stylesheet's text for the server's render (production), null otherwise. Inline, the
 * first paint waits for the page alone instead of another round trip competing with the
 * page's modules for a slow connection's bandwidth.
 */
export const InlineStylesheetContext = createContext<string | null>(null);

const ELEMENT_ID = "app-stylesheet";

/** The inline stylesheet; in the browser it keeps the server's text, so hydration changes nothing. */
export function InlineStylesheet({ nonce }: { nonce: string }) {
  const fromServer = useContext(InlineStylesheetContext);
  const [css] = useState(
    () => fromServer ?? (typeof document === "undefined" ? null : (document.getElementById(ELEMENT_ID)?.textContent ?? null)),
  );
  if (css === null) return null;
  return <style id={ELEMENT_ID} nonce={nonce || undefined} dangerouslySetInnerHTML={{ __html: css }} />;
}
