import { index, layout, prefix, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  layout("layouts/default.tsx", [
    index("routes/home.tsx"),
    route("settings", "routes/settings.tsx"),
    // The pages a mail's link opens, and the request for a reset link.
    route("forgot-password", "routes/forgot-password.tsx"),
    route("reset-password", "routes/reset-password.tsx"),
    route("confirm-email", "routes/confirm-email.tsx"),
    route("unsubscribe", "routes/unsubscribe.tsx"),
    // Failure injection for the end-to-end suite; 404 unless the server runs with TEST_HOOKS=1.
    ...prefix("__test", [
      route("error", "routes/test-hooks/error.tsx"),
      route("slow", "routes/test-hooks/slow.tsx"),
      route("forced-dark", "routes/test-hooks/forced-dark.tsx"),
      route("forced-system", "routes/test-hooks/forced-system.tsx"),
      route("members", "routes/test-hooks/members.tsx"),
      route("guests", "routes/test-hooks/guests.tsx"),
    ]),
    route("*", "routes/not-found.tsx"),
  ]),
  route("resources/theme", "routes/resources/theme.ts"),
  route("resources/locale", "routes/resources/locale.ts"),
  route("resources/account-export", "routes/resources/account-export.ts"),
] satisfies RouteConfig;
