import type { Route } from "./+types/guests";
import { middlewareNamed } from "~/server/middleware/registry.server";

export const middleware: Route.MiddlewareFunction[] = middlewareNamed("test-hooks", "guest");

export default function Guests() {
  return <h1 className="text-2xl font-bold">Guests only</h1>;
}
