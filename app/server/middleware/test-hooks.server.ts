import { data, type MiddlewareFunction } from "react-router";
import { serverEnv } from "../env.server";

/**
 * Guards the /__test/* routes the end-to-end suite uses to inject failures: unless
 * the server was started with TEST_HOOKS=1 they do not exist (404, like any unknown path).
 */
export const testHooksMiddleware: MiddlewareFunction<Response> = ({ request }, next) => {
  if (!serverEnv().TEST_HOOKS) {
    throw data({ message: `Page not found: ${new URL(request.url).pathname}` }, { status: 404 });
  }
  return next();
};
