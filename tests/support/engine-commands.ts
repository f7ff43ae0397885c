import { createInterface } from "node:readline";
import type { Api } from "../../app/api/index.server";

/**
 * An instance's side of the several-instances tests (decision 010): registers with the
 * others, prints `readyLine`, then for each "tick N" line on stdin runs that tick's pass,
 * printing "claimed [shards]" for each claim and "passed {report}" at the end. Returns at
 * "exit" or the end of stdin. The engine processes and the whole-instance processes share it.
 */
export async function runEngineCommands(api: Api, readyLine: string): Promise<void> {
  await api.engine.register();
  process.stdout.write(`${readyLine}\n`);
  for await (const line of createInterface({ input: process.stdin })) {
    if (line === "exit") break;
    const tick = Number(line.replace(/^tick /, ""));
    const report = await api.engine.pass(tick, { onClaim: (shards) => process.stdout.write(`claimed ${JSON.stringify(shards)}\n`) });
    process.stdout.write(`passed ${JSON.stringify({ tick, ...report })}\n`);
  }
}
