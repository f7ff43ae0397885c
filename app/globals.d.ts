/** Fixed at build time by vite.config.ts: one id per `npm run build`. */
declare const __BUILD_ID__: string;
