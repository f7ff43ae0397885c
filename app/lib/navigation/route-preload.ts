import { matchRoutes, type RouteObject } from "react-router";

/** docs/product-constants.md: at most 4 route preloads at once. */
export const MAX_ROUTE_PRELOADS = 4;

/**
 * Loads URLs at most `limit` at a time, in the order asked, each once; a URL that failed
 * may be asked for again.
 */
export function createPreloadQueue(limit: number, load: (url: string) => Promise<void>) {
  const known = new Set<string>();
  const waiting: string[] = [];
  let running = 0;
  const next = () => {
    while (running < limit && waiting.length > 0) {
      const url = waiting.shift()!;
      running++;
      load(url)
        .catch(() => known.delete(url))
        .finally(() => {
          running--;
          next();
        });
    }
  };
  return {
    add(urls: readonly string[]) {
      for (const url of urls) {
        if (known.has(url)) continue;
        known.add(url);
        waiting.push(url);
      }
      next();
    },
    get running() {
      return running;
    },
  };
}

/** The parts of React Router's browser manifest this needs. */
export type ManifestRoute = {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: string;
  imports?: string[];
  clientLoaderModule?: string;
  clientActionModule?: string;
  clientMiddlewareModule?: string;
  hydrateFallbackModule?: string;
};

function routeTree(routes: Record<string, ManifestRoute>, parentId?: string): RouteObject[] {
  return Object.values(routes)
    .filter((route) => route.parentId === parentId)
    .map((route) =>
      route.index
        ? { id: route.id, path: route.path, index: true }
        : { id: route.id, path: route.path, children: routeTree(routes, route.id) },
    );
}

/** Every module the routes matching `pathname` need, parents first. */
export function routeModuleUrls(routes: Record<string, ManifestRoute>, pathname: string): string[] {
  const matches = matchRoutes(routeTree(routes), pathname) ?? [];
  const urls = matches.flatMap(({ route }) => {
    const entry = routes[route.id!]!;
    return [
      entry.module,
      ...(entry.imports ?? []),
      entry.clientLoaderModule,
      entry.clientActionModule,
      entry.clientMiddlewareModule,
      entry.hydrateFallbackModule,
    ].filter((url): url is string => Boolean(url));
  });
  return [...new Set(urls)];
}

function modulePreload(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const link = document.createElement("link");
    link.rel = "modulepreload";
    link.href = url;
    link.onload = () => resolve();
    link.onerror = () => {
      link.remove();
      reject(new Error(`Could not preload ${url}`));
    };
    document.head.append(link);
  });
}

let browserQueue: ReturnType<typeof createPreloadQueue> | null = null;

/** Starts loading the modules of the route at `pathname` that this page has not loaded yet. */
export function preloadRoute(pathname: string) {
  const manifest = (window as { __reactRouterManifest?: { routes: Record<string, ManifestRoute> } }).__reactRouterManifest;
  if (!manifest) return;
  const loaded = new Set(
    [...document.querySelectorAll<HTMLLinkElement | HTMLScriptElement>('link[rel="modulepreload"], script[src]')].map(
      (element) => new URL(element instanceof HTMLLinkElement ? element.href : element.src).pathname,
    ),
  );
  browserQueue ??= createPreloadQueue(MAX_ROUTE_PRELOADS, modulePreload);
  browserQueue.add(routeModuleUrls(manifest.routes, pathname).filter((url) => !loaded.has(url)));
}
