import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Where the descriptions start: a name is what sits left of this column. */
const DESCRIPTION_COLUMN = 20;

/** The paths README.md's "Project layout" names, each joined to the folders it is indented under. */
function layoutPaths(): string[] {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Project layout"));
  const block = section.slice(section.indexOf("```") + 3, section.indexOf("```", section.indexOf("```") + 3));
  const folders: Array<{ indent: number; name: string }> = [];
  const paths: string[] = [];
  for (const line of block.split("\n")) {
    const indent = line.length - line.trimStart().length;
    if (line.trim() === "" || indent >= DESCRIPTION_COLUMN) continue; // a description's continuation
    const name = line.trim().split(/\s{2,}/)[0]!;
    while (folders.length && folders.at(-1)!.indent >= indent) folders.pop();
    const full = path.posix.join(...folders.map((folder) => folder.name), name);
    paths.push(full.replace(/\/$/, ""));
    if (name.endsWith("/")) folders.push({ indent, name });
  }
  return paths;
}

describe("README's project layout", () => {
  it("names only paths that exist", () => {
    const named = layoutPaths();
    expect(named.length).toBeGreaterThan(30);
    // `locales/<locale>/*.json` stands for a pattern, not a path.
    const missing = named.filter((named) => !/[<*]/.test(named) && !existsSync(path.join(ROOT, named)));
    expect(missing).toEqual([]);
  });

  it("names every folder of app/ and app/api/", () => {
    const named = new Set(layoutPaths().flatMap((named) => named.split("/").map((_, i, parts) => parts.slice(0, i + 1).join("/"))));
    const folders = ["app", "app/api"].flatMap((parent) =>
      readdirSync(path.join(ROOT, parent), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `${parent}/${entry.name}`),
    );
    expect(folders.filter((folder) => !named.has(folder))).toEqual([]);
  });
});
