import { GraphQLError, type DocumentNode, type ExecutionArgs, type ExecutionResult } from "graphql";
import type { Api } from "../api/index.server";

type Enveloped = ReturnType<Api["yoga"]["getEnveloped"]>;
type InitialContext = NonNullable<Parameters<Api["yoga"]["getEnveloped"]>[0]>;
type ContextValue = Awaited<ReturnType<Enveloped["contextFactory"]>>;

/** As over HTTP, an error the API did not give a code is a malformed request (the limits' errors have none). */
const withCode = (error: GraphQLError): GraphQLError =>
  error.extensions?.code
    ? error
    : new GraphQLError(error.message, { ...error, extensions: { ...error.extensions, code: "BAD_USER_INPUT" } });

/** An operation ready to run: its arguments, and the API's execute and subscribe (with their plugins) to run it with. */
export type PreparedOperation = {
  args: ExecutionArgs & { contextValue: ContextValue };
  execute: (args: ExecutionArgs) => Promise<ExecutionResult> | ExecutionResult;
  subscribe: Enveloped["subscribe"];
};

/**
 * An operation made ready to run on the embedded API in this process, as yoga makes one from an HTTP request, with
 * the API's plugins: parsing (cached; depth and token limits), validation (cached; cost limit) and the context (the
 * session). What the operation gets instead of an answer (malformed, over a limit, the database unavailable) comes
 * back as errors with a code; anything else is thrown.
 */
export async function prepareOperation(api: Api, initial: InitialContext): Promise<PreparedOperation | { errors: GraphQLError[] }> {
  const { schema, execute, subscribe, contextFactory, parse, validate } = api.yoga.getEnveloped(initial);
  const { query, variables, operationName } = initial.params;
  let document: DocumentNode;
  try {
    document = parse(query ?? "");
    const errors = validate(schema, document);
    if (errors.length) return { errors: errors.map(withCode) };
  } catch (error) {
    if (error instanceof GraphQLError) return { errors: [withCode(error)] };
    throw error;
  }
  let contextValue: ContextValue;
  try {
    contextValue = await contextFactory();
  } catch (error) {
    if (error instanceof GraphQLError) return { errors: [withCode(error)] };
    throw error;
  }
  return {
    args: { schema, document, operationName, variableValues: variables, contextValue },
    execute: execute as PreparedOperation["execute"],
    subscribe,
  };
}
