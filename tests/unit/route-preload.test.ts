import { describe, expect, it } from "vitest";
import { createPreloadQueue, MAX_ROUTE_PRELOADS, routeModuleUrls, type ManifestRoute } from "~/lib/navigation/route-preload";

function deferredLoads() {
  const pending = new Map<string, { resolve: () => void; reject: (error: Error) => void }>();
  const started: string[] = [];
  const load = (url: string) =>
    new Promise<void>((resolve, reject) => {
      started.push(url);
      pending.set(url, { resolve, reject });
    });
  const settle = async (url: string, ok = true) => {
    const entry = pending.get(url)!;
    pending.delete(url);
    if (ok) entry.resolve();
    else entry.reject(new Error(url));
    // Let the queue's promise callbacks run.
    for (let i = 0; i < 3; i++) await Promise.resolve();
  };
  return { load, started, pending, settle };
}

describe("the route preload queue", () => {
  it("runs at most 4 at once, in order, each URL once", async () => {
    expect(MAX_ROUTE_PRELOADS).toBe(4);
    const loads = deferredLoads();
    const queue = createPreloadQueue(MAX_ROUTE_PRELOADS, loads.load);
    const urls = ["/a.js", "/b.js", "/c.js", "/d.js", "/e.js", "/f.js"];
    queue.add(urls);
    queue.add(["/a.js", "/f.js"]);
    expect(loads.started).toEqual(urls.slice(0, 4));
    expect(queue.running).toBe(4);
    await loads.settle("/b.js");
    expect(loads.started).toEqual(urls.slice(0, 5));
    await loads.settle("/a.js");
    expect(loads.started).toEqual(urls);
    expect(queue.running).toBe(4);
  });

  it("frees the slot of a failed load and lets it be asked for again", async () => {
    const loads = deferredLoads();
    const queue = createPreloadQueue(1, loads.load);
    queue.add(["/x.js", "/y.js"]);
    await loads.settle("/x.js", false);
    expect(loads.started).toEqual(["/x.js", "/y.js"]);
    await loads.settle("/y.js");
    queue.add(["/x.js", "/y.js"]);
    expect(loads.started).toEqual(["/x.js", "/y.js", "/x.js"]);
  });
});

describe("routeModuleUrls", () => {
  const routes: Record<string, ManifestRoute> = {
    root: { id: "root", path: "", module: "/root.js", imports: ["/react.js"] },
    layout: { id: "layout", parentId: "root", module: "/layout.js", imports: ["/react.js", "/ui.js"] },
    home: { id: "home", parentId: "layout", index: true, module: "/home.js" },
    settings: { id: "settings", parentId: "layout", path: "settings", module: "/settings.js", clientLoaderModule: "/settings-loader.js" },
    missing: { id: "missing", parentId: "layout", path: "*", module: "/404.js" },
  };

  it("lists the modules of every matching route, parents first, without repeats", () => {
    expect(routeModuleUrls(routes, "/settings")).toEqual([
      "/root.js",
      "/react.js",
      "/layout.js",
      "/ui.js",
      "/settings.js",
      "/settings-loader.js",
    ]);
    expect(routeModuleUrls(routes, "/")).toEqual(["/root.js", "/react.js", "/layout.js", "/ui.js", "/home.js"]);
    expect(routeModuleUrls(routes, "/nowhere").at(-1)).toBe("/404.js");
  });
});
