import { createCookieSessionStorage } from "react-router";
import { createThemeSessionResolver } from "remix-themes";
import { cookieSecrets } from "../secrets.server";

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

// Created per call so a rotated SESSION_SECRET is picked up; the storage itself is cheap.
function themeStorage() {
  return createCookieSessionStorage({
    cookie: {
      name: "weatherbot_theme",
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      maxAge: ONE_YEAR_SECONDS,
      secrets: cookieSecrets(),
    },
  });
}

export function themeSessionResolver(request: Request) {
  return createThemeSessionResolver(themeStorage())(request);
}
