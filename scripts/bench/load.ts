/**
 * A small closed-loop HTTP load generator: `connections` keep-alive clients each send
 * one request after another for `durationMs`. Reports requests per second and latency
 * percentiles. Everything stays on loopback.
 */
import { Agent, request } from "node:http";

export type LoadResult = { requests: number; errors: number; rps: number; p50: number; p99: number };

function post(agent: Agent, url: URL, body: string, headers: Record<string, string>): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(
      url,
      { method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...headers } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve(res.statusCode === 200 && !text.includes('"errors"')));
      },
    );
    req.on("error", () => resolve(false));
    req.end(body);
  });
}

export async function runLoad(options: {
  url: string;
  body: string;
  headers?: Record<string, string>;
  connections: number;
  durationMs: number;
}): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const url = new URL(options.url);
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const deadline = started + options.durationMs;
  async function client() {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      if (!(await post(agent, url, options.body, options.headers ?? {}))) errors++;
      latencies.push(performance.now() - t0);
    }
  }
  await Promise.all(Array.from({ length: options.connections }, client));
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { requests: latencies.length, errors, rps: latencies.length / elapsed, p50: at(0.5), p99: at(0.99) };
}
