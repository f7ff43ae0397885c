import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * `npm run test:container`: the Docker image built with podman and run behind Debian's nginx
 * (tests/container). Its own config: it builds an image and starts containers, so neither
 * `npx vitest run` nor `npm run test:unit` picks it up.
 */
export default defineConfig({
  resolve: { alias: [{ find: "~", replacement: path.resolve(import.meta.dirname, "app") }] },
  test: {
    include: ["tests/container/**/*.test.ts"],
    environment: "node",
    globalSetup: ["tests/container/global-setup.ts"],
    // One deployment at a time: the checks share the containers they start, and the machine has two cores.
    fileParallelism: false,
    sequence: { concurrent: false },
    // Bounds for states awaited (a container that starts, a message that arrives), not waits.
    testTimeout: 120_000,
    hookTimeout: 300_000,
    reporters: ["verbose"],
  },
});
