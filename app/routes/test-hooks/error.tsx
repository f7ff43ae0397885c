import { data } from "react-router";
import type { Route } from "./+types/error";
import { middlewareNamed } from "~/server/middleware/registry.server";

export const middleware: Route.MiddlewareFunction[] = middlewareNamed("test-hooks");

/**
 * `?status=503&message=...` throws an expected error response (its message is shown);
 * without `status` it throws an unexpected Error (production hides its details).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const message = params.get("message") ?? "Injected failure";
  const status = params.get("status");
  if (status) throw data({ message }, { status: Number(status) });
  throw new Error(message);
}

export default function TestError() {
  return null;
}
