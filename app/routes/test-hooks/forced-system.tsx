import type { Route } from "./+types/forced-system";
import { middlewareNamed } from "~/server/middleware/registry.server";
import type { ColorModeHandle } from "~/lib/theme/color-mode";

export const middleware: Route.MiddlewareFunction[] = middlewareNamed("test-hooks");
// Not allowed: logs a warning, and the saved preference applies.
export const handle: ColorModeHandle = { colorMode: "system" };

export default function ForcedSystem() {
  return <h1 className="text-2xl font-bold">Forced system</h1>;
}
