import { useEffect, useState } from "react";

type NetworkInformation = { saveData?: boolean; effectiveType?: string; addEventListener?: (type: "change", listener: () => void) => void; removeEventListener?: (type: "change", listener: () => void) => void };

/** shell.md: no prefetch when the user asks to save data or the connection is 2g. */
export function prefetchAllowed(connection: NetworkInformation | undefined): boolean {
  if (!connection) return true;
  return !connection.saveData && !/(^|-)2g$/.test(connection.effectiveType ?? "");
}

/** The navigation links' prefetch mode: on intent, unless the connection says otherwise (checked after hydration). */
export function usePrefetchMode(): "intent" | "none" {
  const [mode, setMode] = useState<"intent" | "none">("intent");
  useEffect(() => {
    const connection = (navigator as Navigator & { connection?: NetworkInformation }).connection;
    const update = () => setMode(prefetchAllowed(connection) ? "intent" : "none");
    update();
    connection?.addEventListener?.("change", update);
    return () => connection?.removeEventListener?.("change", update);
  }, []);
  return mode;
}
