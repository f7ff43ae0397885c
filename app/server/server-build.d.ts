import type { ServerBuild } from "react-router";

// React Router's Vite plugin provides this module (the routes, entry.server and assets of the
// build); it declares no types for it. Its exports are a ServerBuild's fields.
declare module "virtual:react-router/server-build" {
  export const entry: ServerBuild["entry"];
  export const routes: ServerBuild["routes"];
  export const assets: ServerBuild["assets"];
  export const basename: ServerBuild["basename"];
  export const publicPath: ServerBuild["publicPath"];
  export const assetsBuildDirectory: ServerBuild["assetsBuildDirectory"];
  export const future: ServerBuild["future"];
  export const ssr: ServerBuild["ssr"];
  export const isSpaMode: ServerBuild["isSpaMode"];
  export const prerender: ServerBuild["prerender"];
  export const routeDiscovery: ServerBuild["routeDiscovery"];
  export const allowedActionOrigins: ServerBuild["allowedActionOrigins"];
  export const unstable_getCriticalCss: ServerBuild["unstable_getCriticalCss"];
}
