// `npm test`: everything CI runs, in order, stopping at the first failure.
import { spawnSync } from "node:child_process";

const steps = [
  ["formatting", "npm", ["run", "format:check"]],
  ["lint", "npm", ["run", "lint"]],
  ["generated files up to date", "npx", ["tsx", "scripts/codegen-check.ts"]],
  ["typecheck", "npm", ["run", "typecheck"]],
  ["unit and integration tests", "npm", ["run", "test:unit"]],
  ["production build", "npm", ["run", "build"]],
  ["end-to-end tests", "npm", ["run", "test:e2e"]],
];

for (const [name, command, args] of steps) {
  console.log(`\n▶ ${name}`);
  const result = spawnSync(command, args, { stdio: "inherit" });
  if (result.status !== 0) {
    console.error(`\n✖ ${name} failed`);
    process.exit(result.status ?? 1);
  }
}
console.log("\n✔ all checks passed");
