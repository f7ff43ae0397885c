/**
 * Issue 31's balance of code and test lines, from git: the commits listed in issue-31-commits.txt and those that carry
 * the trailer "Counts-for: issue 31", each counted by `git show --numstat` (renames as renames). Prose, the lockfile,
 * generated files and binaries are not code: `*.md`, `*.txt`, `docs/`, `package-lock.json`, `*.generated.ts`.
 * Runnable alone: `npx tsx scripts/bench/line-balance.ts`.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

export const TRAILER = "Counts-for: issue 31";
const LIST = path.join(import.meta.dirname, "issue-31-commits.txt");
const NOT_CODE = /(\.md|\.txt|\.generated\.ts)$|^docs\/|(^|\/)package-lock\.json$/;

export type LineBalance = { commits: number; added: number; removed: number };

const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });

/** The listed hashes (first word of each line that is not a comment). */
export function listedCommits(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.split(/\s/)[0]!)
    .filter((word) => /^[0-9a-f]{7,40}$/.test(word));
}

/** The balance over `listed` and the trailer's commits in `cwd`'s history, or which listed commits are missing. */
export function lineBalance(cwd: string, listed: string[]): LineBalance | { missing: string[] } {
  const missing = listed.filter((hash) => {
    try {
      git(cwd, "cat-file", "-e", `${hash}^{commit}`);
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length > 0) return { missing };
  const full = listed.map((hash) => git(cwd, "rev-parse", hash).trim());
  const trailed = git(cwd, "log", "--format=%H", "--fixed-strings", `--grep=${TRAILER}`, "HEAD").split("\n").filter(Boolean);
  const commits = [...new Set([...full, ...trailed])];
  let added = 0;
  let removed = 0;
  for (const hash of commits) {
    for (const line of git(cwd, "show", "-M", "--numstat", "--format=", hash).split("\n")) {
      const [plus, minus, file] = line.split("\t");
      // Binary files count "-"; a rename is "old => new" or "dir/{old => new}": its new name decides.
      if (!file || plus === "-" || NOT_CODE.test(file.replace(/\{[^}]* => ([^}]*)\}/, "$1").replace(/.* => /, ""))) continue;
      added += Number(plus);
      removed += Number(minus);
    }
  }
  return { commits: commits.length, added, removed };
}

/** The bench's row: name, value, note; a clear note instead where the history is not here (a shallow clone). */
export function lineBalanceRow(cwd: string): [string, string, string] {
  const name = "Issue 31 lines (code and tests)";
  const balance = lineBalance(cwd, listedCommits(readFileSync(LIST, "utf8")));
  if ("missing" in balance) {
    return [name, "skipped", `git history missing (${balance.missing.length} listed commits not found: a shallow clone?)`];
  }
  const net = balance.added - balance.removed;
  const verdict = net <= -1000 ? "within" : "OVER";
  return [name, String(net), `+${balance.added} −${balance.removed} in ${balance.commits} commits; target ≤ −1000: ${verdict}`];
}

if (import.meta.filename === process.argv[1]) console.log(lineBalanceRow(process.cwd()).join("  "));
