/** The installed app's identity (docs/product-constants.md, "Installed app and offline"); colours are the dark palette's background. */
export const WEB_MANIFEST = {
  id: "/",
  name: "Weatherbot",
  short_name: "Weatherbot",
  description: "Your personal weather bot: forecasts for your places, daily briefings and alerts.",
  start_url: "/",
  scope: "/",
  display: "standalone",
  theme_color: "#0f172a",
  background_color: "#0f172a",
  icons: [
    { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
    { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
    { src: "/icons/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
  ],
} as const;

export const WEB_MANIFEST_URL = "/manifest.webmanifest";
