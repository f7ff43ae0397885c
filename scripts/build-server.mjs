// Bundles server.ts (and the app modules it imports) into build/server.js for `npm start`.
// Packages stay external: production installs them with `npm ci --omit=dev`.
import path from "node:path";
import { build } from "esbuild";

await build({
  entryPoints: ["server.ts"],
  outfile: path.join(process.env.BUILD_DIR ?? "build", "server.js"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
