import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lineBalance, listedCommits, TRAILER } from "../../scripts/bench/line-balance";

const repo = mkdtempSync(path.join(tmpdir(), "line-balance-"));
afterAll(() => rmSync(repo, { recursive: true, force: true }));

const git = (...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: repo, encoding: "utf8" }).trim();
function commit(files: Record<string, string | null>, message: string): string {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    if (text === null) git("rm", "-q", file);
    else writeFileSync(path.join(repo, file), text);
  }
  git("add", "-A");
  git("commit", "-q", "-m", message);
  return git("rev-parse", "--short", "HEAD");
}

describe("issue 31's line balance", () => {
  git("init", "-q");
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i}`).join("\n") + "\n";
  commit({ "app/a.ts": lines(10), "app/b.ts": lines(5) }, "before the issue");
  const listed = commit(
    {
      "app/a.ts": null,
      "docs/x.html": "<p>prose</p>\n".repeat(40),
      "notes.md": "prose\n".repeat(7),
      "app/t.generated.ts": lines(30),
      "tests/b.test.ts": lines(3),
    },
    "listed",
  );
  commit({ "app/c.ts": lines(50) }, "another issue's");
  git("mv", "app/b.ts", "app/moved.ts");
  commit({ "app/moved.ts": lines(4) }, `moved and trimmed\n\n${TRAILER}`);

  it("counts the listed commits and the trailer's, leaving out prose, generated files and other commits; a move is no line", () => {
    expect(listedCommits(`# a note\n${listed} what it did\nnot-a-hash\n`)).toEqual([listed]);
    expect(lineBalance(repo, [listed])).toEqual({ commits: 2, added: 3, removed: 11 });
  });

  it("says which listed commits the history lacks", () => {
    expect(lineBalance(repo, [listed, "0123abc"])).toEqual({ missing: ["0123abc"] });
  });
});
