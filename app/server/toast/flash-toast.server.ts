import { randomUUID } from "node:crypto";
import { createCookie, redirect } from "react-router";
import { isOfflineCopyRequest } from "../../lib/pwa/offline-copy";
import { cookieSecrets } from "../secrets.server";
import { isToastInput, type ToastInput } from "../../lib/toast/toast";

/** What a server action can say: text only (an action button needs the browser). */
export type FlashToast = Omit<ToastInput, "action"> & { id: string };

function flashCookie() {
  return createCookie("weatherbot_flash", {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    maxAge: 60,
    secrets: cookieSecrets(),
  });
}

/** A redirect that shows a toast on the page it lands on (a server action's way to raise one). */
export async function redirectWithToast(url: string, toast: Omit<ToastInput, "action">, init: ResponseInit = {}) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await flashCookie().serialize({ ...toast, id: randomUUID() }));
  return redirect(url, { ...init, headers });
}

/**
 * Reads and clears the flash toast of a request; `setCookie` must go on the response.
 * A page fetched to be cached offline leaves it for the page that is shown.
 */
export async function takeFlashToast(request: Request): Promise<{ toast: FlashToast | null; setCookie: string | null }> {
  if (isOfflineCopyRequest(request)) return { toast: null, setCookie: null };
  const cookie = flashCookie();
  const value: unknown = await cookie.parse(request.headers.get("Cookie"));
  if (!value) return { toast: null, setCookie: null };
  const setCookie = await cookie.serialize("", { maxAge: 0 });
  const toast = isToastInput(value) && typeof (value as FlashToast).id === "string" ? (value as FlashToast) : null;
  return { toast, setCookie };
}
