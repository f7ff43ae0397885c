import { randomBytes } from "node:crypto";
import { containerLogs, healthcheck, isRunning, runContainer, type ContainerSpec } from "./podman";
import { freePort } from "../../support/free-port";

export { freePort };

export const sessionSecret = () => randomBytes(32).toString("hex");

export type AppContainer = { name: string; port: number; logs: () => Promise<string> };

/**
 * Starts an app container and waits until the image's own HEALTHCHECK passes. A container that exits
 * (a bad configuration) fails at once, with its log.
 */
export async function startApp(spec: ContainerSpec & { port: number }): Promise<AppContainer> {
  await runContainer(spec);
  const app: AppContainer = { name: spec.name, port: spec.port, logs: () => containerLogs(spec.name) };
  const deadline = Date.now() + 120_000;
  while (!(await healthcheck(spec.name))) {
    if (!(await isRunning(spec.name))) throw new Error(`container ${spec.name} stopped:\n${await app.logs()}`);
    if (Date.now() > deadline) throw new Error(`${spec.name} did not pass its HEALTHCHECK within 120 s:\n${await app.logs()}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return app;
}
