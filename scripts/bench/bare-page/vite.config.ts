import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [reactRouter()],
  // Its output lies outside this folder (in the repository's git-ignored build/): Vite clears it only when told.
  build: { emptyOutDir: true },
});
