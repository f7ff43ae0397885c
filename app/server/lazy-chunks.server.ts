import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { ServerBuild } from "react-router";
import type { LazyChunks } from "../lib/lazy-chunks-context";

/** An entry of Vite's build manifest (build.manifest: true keeps it at .vite/manifest.json). */
type ManifestChunk = { file: string; name?: string; isDynamicEntry?: boolean; imports?: string[] };

/**
 * The client chunks of lazily imported modules, read once from the client build's manifest: a
 * module's own chunk and the chunks it imports, recursively (its dynamic imports stay lazy), less
 * those the route's page names anyway (the entry's, and the route's and its parents'), so the
 * page names each chunk once. Without a manifest (a build made before it was kept) nothing is
 * named: pages still work, their lazy parts a round trip later.
 */
export function lazyChunksOf(clientDir: string, pageAssets: ServerBuild["assets"]): LazyChunks {
  const file = path.join(clientDir, ".vite", "manifest.json");
  if (!existsSync(file)) return () => [];
  const manifest = JSON.parse(readFileSync(file, "utf8")) as Record<string, ManifestChunk>;
  // A dynamic entry is keyed by its source when its chunk has it as its facade; Rollup may key it by its file
  // instead ("_dashboard-1Z1HNPaj.js", as for the dashboard): then it is the dynamic entry named after the module.
  const keyOf = (modulePath: string) => {
    if (manifest[modulePath]) return modulePath;
    const name = path.basename(modulePath).replace(/\.[^.]+$/, "");
    return Object.keys(manifest).find((key) => manifest[key]!.isDynamicEntry && manifest[key]!.name === name);
  };
  const namedByPage = (routeId: string) => {
    const urls = new Set([pageAssets.entry.module, ...pageAssets.entry.imports]);
    for (let route = pageAssets.routes[routeId]; route; route = route.parentId ? pageAssets.routes[route.parentId] : undefined) {
      urls.add(route.module);
      for (const url of route.imports ?? []) urls.add(url);
    }
    return urls;
  };
  const known = new Map<string, readonly string[]>();
  return (modulePath, routeId) => {
    const cacheKey = `${modulePath} ${routeId}`;
    let urls = known.get(cacheKey);
    if (!urls) {
      const files = new Set<string>();
      const walk = (key: string) => {
        const chunk = manifest[key];
        if (!chunk || files.has(chunk.file)) return;
        files.add(chunk.file);
        for (const imported of chunk.imports ?? []) walk(imported);
      };
      const key = keyOf(modulePath);
      if (key) walk(key);
      const named = namedByPage(routeId);
      urls = [...files].map((chunkFile) => `/${chunkFile}`).filter((url) => !named.has(url));
      known.set(cacheKey, urls);
    }
    return urls;
  };
}
