import type { AnyVariables, TypedDocumentNode } from "@urql/core";
import { loadNavigationInFull } from "~/lib/pwa/full-load";
import { getBrowserGraphQL } from "./browser-client";
import { SILENT_OPERATION } from "./install-browser";
import { queryFailure } from "./query-failure";

/**
 * A route's client loader reads through the browser's client, cache-first: a page the
 * cache already holds costs no request. A failure shows the error page, like on the server;
 * no answer at all (offline, server down) loads the page in full from the worker's copy.
 */
export async function clientLoadQuery<Data, Variables extends AnyVariables>(
  query: TypedDocumentNode<Data, Variables>,
  variables: Variables,
): Promise<Data> {
  const result = await getBrowserGraphQL().current().query(query, variables, SILENT_OPERATION).toPromise();
  if (result.error?.networkError && !result.error.response) await loadNavigationInFull();
  if (result.error) throw queryFailure(result.error);
  return result.data as Data;
}
