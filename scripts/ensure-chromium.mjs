// The end-to-end tests drive Debian's Chromium. Find it, install it (as root, with
// apt), or stop with one line saying what to do.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";

const path = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (existsSync(path)) process.exit(0);

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const hasApt = existsSync("/usr/bin/apt-get");
if (!isRoot || !hasApt || process.env.CHROMIUM_PATH) {
  console.error(`Chromium not found at ${path}: install it (sudo apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium binary.`);
  process.exit(1);
}
console.log("Chromium not found: installing Debian's chromium package…");
execSync("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium", {
  stdio: "inherit",
});
if (!existsSync(path)) {
  console.error(`Installed chromium, but ${path} still does not exist.`);
  process.exit(1);
}
