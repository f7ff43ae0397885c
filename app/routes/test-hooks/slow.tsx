import type { Route } from "./+types/slow";
import { middlewareNamed } from "~/server/middleware/registry.server";

export const middleware: Route.MiddlewareFunction[] = middlewareNamed("test-hooks");

/** A page whose loader takes `?ms=` milliseconds (at most 10 s): for the loading bar. */
export async function loader({ request }: Route.LoaderArgs) {
  const ms = Math.min(Number(new URL(request.url).searchParams.get("ms") ?? 1000) || 0, 10_000);
  await new Promise((resolve) => setTimeout(resolve, ms));
  return { ms };
}

export default function Slow({ loaderData }: Route.ComponentProps) {
  return <h1 className="text-2xl font-bold">Slow page ({loaderData.ms} ms)</h1>;
}
