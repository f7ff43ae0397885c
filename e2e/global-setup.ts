import type { FullConfig } from "@playwright/test";
import { startAppServer } from "./support/app-server";

/** One production server for the whole run; tests read its address from E2E_BASE_URL. */
export default async function globalSetup(_config: FullConfig) {
  const server = await startAppServer();
  process.env.E2E_BASE_URL = server.baseURL;
  return async () => {
    await server.stop();
  };
}
