import { createSchema } from "graphql-yoga";
import type { ApiContext } from "../context.server";
import { uncacheableUnlessDeclared } from "../result-cache.server";
import { accountResolvers } from "./account.server";
import { accountSecurityResolvers } from "./account-security.server";
import { alertRulesResolvers } from "./alert-rules.server";
import { briefingsResolvers } from "./briefings.server";
import { mailResolvers } from "./mail.server";
import { messagesResolvers } from "./messages.server";
import { placesResolvers } from "./places.server";
import { pushResolvers } from "./push.server";
import { scalarResolvers } from "./scalars.server";
import { typeDefs } from "./schema-sdl.generated";
import { warningsResolvers } from "./warnings.server";
import { weatherResolvers } from "./weather.server";

/** More SDL and resolvers beside the API's own (tests add fields with it). */
export type SchemaExtension = { typeDefs: string; resolvers: Record<string, Record<string, unknown>> };

/** Each area owns its SDL (`<area>.graphql`, compiled into schema-sdl.generated.ts by `npm run codegen`) and resolvers. */
export function createApiSchema(extensions: readonly SchemaExtension[] = []) {
  const resolvers = [
    scalarResolvers,
    accountResolvers,
    accountSecurityResolvers,
    placesResolvers,
    weatherResolvers,
    messagesResolvers,
    briefingsResolvers,
    alertRulesResolvers,
    pushResolvers,
    warningsResolvers,
    mailResolvers,
    ...extensions.map((extension) => extension.resolvers),
  ];
  return createSchema<ApiContext>({
    typeDefs: [typeDefs, ...extensions.map((extension) => extension.typeDefs)],
    // Answers with a resolver not marked `cacheable` are never cached (see useResultCache).
    resolvers: resolvers.map((area) => uncacheableUnlessDeclared(area as Record<string, Record<string, unknown>>)),
  });
}
