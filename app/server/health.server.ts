import type { IncomingMessage, ServerResponse } from "node:http";
import type { DatabaseHealth } from "../api/db/health.server";

export type HealthBody = {
  status: "ok" | "unavailable";
  buildId: string;
  /** null: no database in this process (GRAPHQL_URL: a hosted API has its own). */
  database: DatabaseHealth | null;
};

/**
 * /healthz as a readiness check: 200 while this instance can serve, 503 while its database
 * does not answer (a proxy or a container HEALTHCHECK then takes it out of rotation). The
 * app's offline probe reads a 503 as "server unreachable", which is what the user meets
 * then anyway.
 */
export async function healthAnswer(
  probe: (() => Promise<DatabaseHealth>) | null,
  buildId: string,
): Promise<{ status: number; body: HealthBody }> {
  const database = probe ? await probe() : null;
  const ok = database === null || database.reachable;
  return { status: ok ? 200 : 503, body: { status: ok ? "ok" : "unavailable", buildId, database } };
}

/** The answer as a plain Node handler (Express's route and the tests' server both use it). */
export function healthHandler(probe: (() => Promise<DatabaseHealth>) | null, buildId: string) {
  return (_req: IncomingMessage, res: ServerResponse) => {
    void healthAnswer(probe, buildId).then(({ status, body }) => {
      res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
      res.end(JSON.stringify(body));
    });
  };
}
