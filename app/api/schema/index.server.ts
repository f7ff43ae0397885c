import { createSchema } from "graphql-yoga";
import type { ApiContext } from "../context.server";
import { keepUnlessDeclared } from "../result-cache.server";
import { accountResolvers, accountTypeDefs } from "./account.server";
import { alertRulesResolvers, alertRulesTypeDefs } from "./alert-rules.server";
import { briefingsResolvers, briefingsTypeDefs } from "./briefings.server";
import { messagesResolvers, messagesTypeDefs } from "./messages.server";
import { placesResolvers, placesTypeDefs } from "./places.server";
import { pushResolvers, pushTypeDefs } from "./push.server";
import { scalarResolvers, scalarTypeDefs } from "./scalars.server";
import { weatherResolvers, weatherTypeDefs } from "./weather.server";

/** More SDL and resolvers beside the API's own (tests add fields with it). */
export type SchemaExtension = { typeDefs: string; resolvers: Record<string, Record<string, unknown>> };

/** Each area owns its SDL and resolvers; createSchema merges types that several areas extend. */
export function createApiSchema(extensions: readonly SchemaExtension[] = []) {
  const resolvers = [
    scalarResolvers,
    accountResolvers,
    placesResolvers,
    weatherResolvers,
    messagesResolvers,
    briefingsResolvers,
    alertRulesResolvers,
    pushResolvers,
    ...extensions.map((extension) => extension.resolvers),
  ];
  return createSchema<ApiContext>({
    typeDefs: [
      scalarTypeDefs,
      accountTypeDefs,
      placesTypeDefs,
      weatherTypeDefs,
      messagesTypeDefs,
      briefingsTypeDefs,
      alertRulesTypeDefs,
      pushTypeDefs,
      ...extensions.map((extension) => extension.typeDefs),
    ],
    // Answers with a resolver not marked `keepable` are never kept (see useResultCache).
    resolvers: resolvers.map((area) => keepUnlessDeclared(area as Record<string, Record<string, unknown>>)),
  });
}
