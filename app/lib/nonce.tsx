import { createContext, useContext } from "react";

/** The per-request CSP nonce; empty in the browser, which hides nonce attributes anyway. */
export const NonceContext = createContext<string>("");

export function useNonce(): string {
  return useContext(NonceContext);
}
