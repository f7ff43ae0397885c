import type { Client, OperationResult } from "@urql/core";

/**
 * The results a server render's client holds, by urql's request key: its request cache
 * (`request-cache.server.ts`) names them here, so the render's `useQuery` (use-query.ts) reads them without
 * running an operation through the client. Kept per client, and a client lives for one request.
 */
const renderResults = new WeakMap<Client, ReadonlyMap<number, OperationResult>>();

export function setRenderResults(client: Client, results: ReadonlyMap<number, OperationResult>): void {
  renderResults.set(client, results);
}

export function renderResultsOf(client: Client): ReadonlyMap<number, OperationResult> | undefined {
  return renderResults.get(client);
}
