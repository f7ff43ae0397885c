import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Source files under version control (the generated and vendored ones are not read by people). */
function sourceFiles(): string[] {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "app", "e2e", "tests", "scripts", "*.ts"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return listed
    .split("\n")
    .filter((file) => /\.(ts|tsx|mjs|css)$/.test(file) && !file.endsWith(".generated.ts") && existsSync(path.join(ROOT, file)));
}

// A reader of the repository has only the repository: design notes kept elsewhere are not cited.
// "The spec" with no file named is one of them too: docs/product-constants.md holds the product's constants.
const OUTSIDE_DOCUMENTS = /\b(seed spec|spec\.md|shell\.md|domain\.md|architecture\.md|the spec(?:'s)?)\b|§\s*\d/i;

describe("comments cite the repository", () => {
  it("names no document kept outside the repository", () => {
    const self = path.relative(ROOT, import.meta.filename);
    const offenders = sourceFiles()
      .filter((file) => file !== self)
      .flatMap((file) =>
        readFileSync(path.join(ROOT, file), "utf8")
          .split("\n")
          .flatMap((line, index) => (OUTSIDE_DOCUMENTS.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
      );
    expect(offenders).toEqual([]);
  });

  it("cites only docs/ files that exist", () => {
    const missing = sourceFiles().flatMap((file) =>
      [...readFileSync(path.join(ROOT, file), "utf8").matchAll(/\bdocs\/[\w./-]+\.md\b/g)]
        .map((match) => match[0])
        .filter((cited) => !existsSync(path.join(ROOT, cited)))
        .map((cited) => `${file} cites ${cited}`),
    );
    expect(missing).toEqual([]);
  });
});
