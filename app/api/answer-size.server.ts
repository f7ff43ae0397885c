import type { ExecutionResult, GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";
import { apiLog } from "./log.server";

/**
 * The largest answer sent, in characters of JSON. The cost limit keeps the app's
 * own answers far below it (its largest, 20 places with their weather, is ≈ 250 KB); this is
 * the backstop for what the cost limit cannot see, such as long texts.
 */
export const MAX_ANSWER_CHARS = 4_000_000;

type Serializable = ExecutionResult & { stringify?: (result: ExecutionResult) => string };

/** The one error an answer over the limit is replaced with. */
export function oversizeAnswer(maxChars: number): ExecutionResult {
  return {
    errors: [
      {
        message:
          `The answer would be larger than ${maxChars} characters and was not sent: ` +
          "ask for fewer places, hours, days or fields at once",
        extensions: { code: "BAD_USER_INPUT", maxChars },
      } as unknown as GraphQLError,
    ],
  };
}

function refused(length: number, maxChars: number) {
  apiLog.warn({}, `[graphql] an answer of ${length} characters was refused (limit ${maxChars})`);
}

/**
 * `result`, or the error that replaces it when its JSON is longer than `maxChars` (for
 * graphql-ws, which serializes results itself). A result with its own serializer (the
 * result cache's, graphql-jit's) is measured with it.
 */
export function limitAnswer(result: ExecutionResult, maxChars: number): ExecutionResult {
  const own = (result as Serializable).stringify;
  const length = (own ? own(result) : JSON.stringify(result)).length;
  if (length <= maxChars) return result;
  refused(length, maxChars);
  return oversizeAnswer(maxChars);
}

/**
 * Answers larger than `maxChars` are not sent: the client gets one error saying so. Yoga
 * serializes a result with its own `stringify` when it has one (graphql-jit's and the result
 * cache's answers do): the limit wraps that, so the answer is serialized only once.
 */
export function useAnswerSizeLimit(maxChars = MAX_ANSWER_CHARS): Plugin {
  const refusal = JSON.stringify(oversizeAnswer(maxChars));
  return {
    onResultProcess({ result }) {
      // Batches and event streams are not what the API serves.
      if (Array.isArray(result) || !result || typeof result !== "object" || Symbol.asyncIterator in result) return;
      // Set on the result itself (each execution's own object): a copy would read the result
      // cache's `data`, which parses its cached text.
      const serializable = result as Serializable;
      const serialize = serializable.stringify ?? JSON.stringify;
      serializable.stringify = (sanitized: ExecutionResult) => {
        const text = serialize(sanitized);
        if (text.length <= maxChars) return text;
        refused(text.length, maxChars);
        return refusal;
      };
    },
  };
}
