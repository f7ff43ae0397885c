import { useEffect, useState } from "react";

type NetworkInformation = {
  saveData?: boolean;
  effectiveType?: string;
  addEventListener?: (type: "change", listener: () => void) => void;
  removeEventListener?: (type: "change", listener: () => void) => void;
};

/** docs/product-constants.md: no prefetch when the user asks to save data or the connection is 2g. */
export function prefetchAllowed(connection: NetworkInformation | undefined): boolean {
  if (!connection) return true;
  return !connection.saveData && !/(^|-)2g$/.test(connection.effectiveType ?? "");
}

/** Whether links may preload their routes on intent (checked after hydration, and again when the connection changes). */
export function usePrefetchAllowed(): boolean {
  const [allowed, setAllowed] = useState(true);
  useEffect(() => {
    const connection = (navigator as Navigator & { connection?: NetworkInformation }).connection;
    const update = () => setAllowed(prefetchAllowed(connection));
    update();
    connection?.addEventListener?.("change", update);
    return () => connection?.removeEventListener?.("change", update);
  }, []);
  return allowed;
}
