import { afterAll, afterEach } from "vitest";
import { format } from "node:util";
import { dropTestDatabases } from "./test-database";

/**
 * Any console.error a test did not ask for fails it. The error is thrown where it is
 * logged and also reported after the test, in case the throw was swallowed (for example
 * inside a React effect). Tests that expect one use
 * `vi.spyOn(console, "error").mockImplementation(() => {})`; restoreMocks puts this back.
 */
const unexpected: string[] = [];

console.error = (...args: unknown[]) => {
  const message = `Unexpected console.error: ${format(...args)}`;
  unexpected.push(message);
  throw new Error(message);
};

afterEach(() => {
  const logged = unexpected.splice(0);
  if (logged.length > 0) throw new Error(logged.join("\n"));
});

// Registered first, so it runs after the file's own afterAll hooks have closed their APIs.
afterAll(dropTestDatabases);
