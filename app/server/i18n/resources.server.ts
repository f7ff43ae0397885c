import type { Resource } from "i18next";

type JsonModule = { default: Record<string, unknown> };

// The server renders any locale at any time, so it holds all of them in memory.
const files = import.meta.glob<JsonModule>("../../../locales/*/*.json", { eager: true });

export const allResources: Resource = {};
for (const [path, module] of Object.entries(files)) {
  const [, locale = "", namespace = ""] = /locales\/([^/]+)\/([^/]+)\.json$/.exec(path) ?? [];
  allResources[locale] ??= {};
  allResources[locale][namespace] = module.default;
}
