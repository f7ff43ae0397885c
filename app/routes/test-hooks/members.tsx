import type { Route } from "./+types/members";
import { middlewareNamed } from "~/server/middleware/registry.server";
import { sessionUserContext } from "~/server/middleware/session.server";

export const middleware: Route.MiddlewareFunction[] = middlewareNamed("test-hooks", "auth");

export async function loader({ context }: Route.LoaderArgs) {
  return { email: context.get(sessionUserContext).email };
}

export default function Members({ loaderData }: Route.ComponentProps) {
  return <h1 className="text-2xl font-bold">Members only: {loaderData.email}</h1>;
}
