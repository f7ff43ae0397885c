import type { MiddlewareFunction } from "react-router";
import { graphqlMiddleware } from "../graphql/request-client.server";
import { i18nextMiddleware } from "../i18n/middleware.server";
import { authMiddleware, guestMiddleware } from "./session.server";
import { testHooksMiddleware } from "./test-hooks.server";

/**
 * Route middleware by name. A route names what it needs
 * (`export const middleware = middlewareNamed("i18n")`) instead of importing
 * functions, so the set of guards stays in one place.
 */
const registry = {
  i18n: i18nextMiddleware,
  graphql: graphqlMiddleware,
  auth: authMiddleware,
  guest: guestMiddleware,
  "test-hooks": testHooksMiddleware,
} satisfies Record<string, MiddlewareFunction<Response>>;

export type MiddlewareName = keyof typeof registry;

/** Resolves middleware names; an unknown name throws `Unknown middleware: {name}`. */
export function middlewareNamed(...names: MiddlewareName[]): MiddlewareFunction<Response>[] {
  return names.map((name) => {
    if (!Object.hasOwn(registry, name)) throw new Error(`Unknown middleware: ${name}`);
    return registry[name];
  });
}
