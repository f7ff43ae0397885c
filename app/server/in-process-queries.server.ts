import { GraphQLError, type ExecutionResult } from "graphql";
import type { Api } from "../api/index.server";
import type { GraphQLQuery, GraphQLQueryRunner } from "../lib/graphql/executor-context";
import { GRAPHQL_PATH } from "../shared/graphql-path";
import { prepareOperation } from "./prepared-operation.server";

type LogError = (fields: { reqId?: string; err: unknown }, message: string) => void;

/**
 * Runs a page's queries on the embedded API as yoga runs them from HTTP (the same plugins: result cache, depth, token
 * and cost limits, error codes and masking, one log line per operation), without the HTTP between: no Request and Response per query,
 * no JSON written and parsed back. As the page's client address, under the page's request id.
 *
 * It skips what only HTTP needs: yoga's request parsing and the answer size limit, which guards what is sent to a
 * client as one answer (the page's own queries are far below it: their cost limit allows about 250 KB).
 */
export function inProcessQueryRunner(api: Api, clientIp: string, requestId: string, logError: LogError): GraphQLQueryRunner {
  // One request for the page's queries: they carry the same headers (the session's token).
  let request: { headers: Record<string, string>; request: Request } | null = null;
  const requestFor = (headers: Record<string, string>) => {
    if (request?.headers !== headers)
      request = { headers, request: new Request(`http://weatherbot.internal${GRAPHQL_PATH}`, { method: "POST", headers }) };
    return request.request;
  };
  return async ({ query, variables, operationName, headers }: GraphQLQuery): Promise<ExecutionResult> => {
    try {
      const prepared = await prepareOperation(api, {
        request: requestFor(headers),
        clientIp,
        requestId,
        params: { query, variables, operationName },
      });
      if ("errors" in prepared) return { errors: prepared.errors };
      return await prepared.execute(prepared.args);
    } catch (error) {
      // As yoga masks it: the details go to the log, the page gets the code.
      logError({ reqId: requestId, err: error }, "[graphql] unexpected error:");
      return { errors: [new GraphQLError("Unexpected error.", { extensions: { code: "INTERNAL_SERVER_ERROR" } })] };
    }
  };
}
