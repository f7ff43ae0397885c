import type { Route } from "./+types/forced-dark";
import { middlewareNamed } from "~/server/middleware/registry.server";
import type { ColorModeHandle } from "~/lib/theme/color-mode";

export const middleware: Route.MiddlewareFunction[] = middlewareNamed("test-hooks");
export const handle: ColorModeHandle = { colorMode: "dark" };

export default function ForcedDark() {
  return <h1 className="text-2xl font-bold">Forced dark</h1>;
}
