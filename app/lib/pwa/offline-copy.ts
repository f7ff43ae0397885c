/**
 * Marks a request for a page that is cached for offline use, not shown now. The server
 * leaves one-time content (a flash toast) for the page the user does see: a page copy
 * fetched beside a sign-up would otherwise take the "account is ready" toast first.
 */
export const OFFLINE_COPY_HEADER = "X-Weatherbot-Offline-Copy";

export function offlineCopyRequest(url: string): Request {
  return new Request(new URL(url, location.href), { headers: { [OFFLINE_COPY_HEADER]: "1" } });
}

export function isOfflineCopyRequest(request: Request): boolean {
  return request.headers.has(OFFLINE_COPY_HEADER);
}
