import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { ROOT } from "../../e2e/support/app-server";

export type WarningRequests = { nws: number; feeds: number; documents: number };

/** The official-warnings fake as a separate process (warnings-fake-server.ts), with its request counts. */
export async function startFakeWarningsProcess() {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts/bench/warnings-fake-server.ts")], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout });
  const waiting: Array<(line: string) => void> = [];
  lines.on("line", (line) => waiting.shift()?.(line));
  const nextLine = () => new Promise<string>((resolve) => waiting.push(resolve));
  const url = await nextLine();
  return {
    url,
    async requests(): Promise<WarningRequests> {
      const answer = nextLine();
      child.stdin.write("counts\n");
      return JSON.parse(await answer) as WarningRequests;
    },
    async close() {
      child.stdin.end();
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}
