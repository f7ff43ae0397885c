import type { Plugin } from "graphql-yoga";

/**
 * Requests yoga cannot read get a GraphQL error body with a message and a code, like every
 * other answer of the API: yoga alone answers an unknown content type with an empty 415 and
 * GET parameters that are not JSON with an internal error.
 */

const JSON_GET_PARAMETERS = ["variables", "extensions"] as const;

function refusal(status: number, code: string, message: string): Response {
  return new Response(JSON.stringify({ errors: [{ message, extensions: { code } }] }), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8" },
  });
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Must come after yoga's own request parsers (user plugins do): it acts when none of them took the request. */
export const useRequestRefusals = (): Plugin => ({
  onRequestParse({ request, url, requestParser, endResponse }) {
    if (!requestParser) {
      const contentType = request.headers.get("content-type");
      endResponse(
        refusal(
          415,
          "UNSUPPORTED_MEDIA_TYPE",
          `Send GraphQL requests as application/json (POST) or as query parameters (GET); ${
            contentType ? `"${contentType}"` : "a body without a content type"
          } is not accepted`,
        ),
      );
      return;
    }
    if (request.method !== "GET") return;
    for (const name of JSON_GET_PARAMETERS) {
      const value = url.searchParams.get(name);
      if (value && !isJson(value)) {
        endResponse(refusal(400, "BAD_USER_INPUT", `The \`${name}\` query parameter must be JSON (an object such as {"id":"…"})`));
        return;
      }
    }
  },
});
