import { useEffect, useState } from "react";
import { whenBrowserIdle } from "./browser-idle";

/** False on the server and through hydration; true from the browser's first idle moment after it. */
export function useBrowserIdle(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => whenBrowserIdle(() => setIdle(true)), []);
  return idle;
}
