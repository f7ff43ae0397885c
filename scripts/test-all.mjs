// `npm test`: everything CI runs, in order, stopping at the first failure; prints how long each step and the whole took.
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

const minutes = (ms) => `${(ms / 60_000).toFixed(1)} min`;
const started = performance.now();
const took = [];
for (const [name, command, args] of steps) {
  console.log(`\n▶ ${name}`);
  const stepStarted = performance.now();
  const result = spawnSync(command, args, { stdio: "inherit" });
  took.push(`${name} ${minutes(performance.now() - stepStarted)}`);
  if (result.status !== 0) {
    console.error(`\n✖ ${name} failed (after ${minutes(performance.now() - started)})`);
    process.exit(result.status ?? 1);
  }
}
console.log(`\n${took.join(", ")}`);
console.log(`✔ all checks passed in ${minutes(performance.now() - started)}`);
