import type { AnyVariables, TypedDocumentNode } from "@urql/core";

/**
 * Runs one query for a route: on the server's request client (`loadQuery`) in `loader`, on
 * the browser's client (`clientLoadQuery`) in `clientLoader`. A route lists its queries once,
 * in a function taking a `Load`, and both loaders call it.
 */
export type Load = <Data, Variables extends AnyVariables>(query: TypedDocumentNode<Data, Variables>, variables: Variables) => Promise<Data>;
