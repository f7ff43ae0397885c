import { useGraphQlJit } from "@envelop/graphql-jit";
import type { DocumentNode } from "graphql";
import type { Plugin } from "graphql-yoga";
import { apiLog } from "./log.server";

/** Runs of one document before it is compiled. */
export const JIT_AFTER_RUNS = 2;

/**
 * Executes repeated operations with graphql-jit, which compiles a document into one
 * function (the benchmark's query ran ≈ 1.5× faster). Only a document that comes back is
 * compiled: compiling costs more than running once, and a stream of one-off queries should
 * not buy that cost every time. Yoga's parser cache hands back the same document object
 * for the same text, which is what is counted. Compiled errors carry the same message,
 * path and code, but no `locations`.
 */
export function useJitForRepeatedOperations(): Plugin {
  const runs = new WeakMap<DocumentNode, number>();
  return useGraphQlJit(
    {},
    {
      enableIf({ document }) {
        // The plugin keeps one compiled query per document, compiled for the operation it first
        // ran: a document of several operations would answer every later one with that one.
        if (document.definitions.filter((definition) => definition.kind === "OperationDefinition").length !== 1) return false;
        const count = (runs.get(document) ?? 0) + 1;
        runs.set(document, count);
        return count >= JIT_AFTER_RUNS;
      },
      onError: (error) => apiLog.error({ err: error }, "[graphql] could not compile an operation; it runs uncompiled:"),
    },
  ) as Plugin;
}
