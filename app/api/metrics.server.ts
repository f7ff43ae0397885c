/**
 * What the API reports for /metrics. The API counts through this interface and imports no
 * metrics library; the server gives it prom-client's implementation
 * (app/server/metrics.server.ts). Without one (tests, scripts) nothing is counted.
 */

export type OperationOutcome = { name: string; type: string; seconds: number; errorCodes: readonly string[] };
export type WeatherCallOutcome = "ok" | "error";
export type PushOutcome = "delivered" | "gone" | "refused" | "unreachable";

export type ApiMetrics = {
  /** A GraphQL operation ran (or was answered from the result cache). */
  operation(outcome: OperationOutcome): void;
  /** One HTTP request to Open-Meteo (each retry is one), `endpoint` forecast or search. */
  weatherCall(endpoint: "forecast" | "search" | "air-quality", outcome: WeatherCallOutcome, seconds: number): void;
  /** A lookup in one of the API's caches. */
  cacheLookup(cache: "result" | "forecast" | "air-quality", hit: boolean): void;
  /** This instance's pass of an engine tick. */
  engineTick(seconds: number, outcome: "ok" | "error"): void;
  /** Messages this instance wrote to users' inboxes. */
  messageWritten(kind: string): void;
  /** One push posted to a push service, by what came of it. */
  pushSent(outcome: PushOutcome): void;
  /** Subscriptions opened (+1) and ended (−1). */
  subscriptions(delta: 1 | -1): void;
};

export const noMetrics: ApiMetrics = {
  operation: () => {},
  weatherCall: () => {},
  cacheLookup: () => {},
  engineTick: () => {},
  messageWritten: () => {},
  pushSent: () => {},
  subscriptions: () => {},
};
