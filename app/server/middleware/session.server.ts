import { createContext, redirect, type MiddlewareFunction } from "react-router";
import { currentUser } from "../account.server";

export type SessionUser = { id: string; email: string };

/** The signed-in user, for loaders behind the `auth` middleware. */
export const sessionUserContext = createContext<SessionUser>();

/** `auth`: only for signed-in users; anyone else is sent to the account section of settings. */
export const authMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const user = await currentUser(request, context);
  if (!user) {
    const from = new URL(request.url);
    throw redirect(`/settings?section=account&redirectTo=${encodeURIComponent(from.pathname + from.search)}`);
  }
  context.set(sessionUserContext, user);
  return next();
};

/** `guest`: only for signed-out visitors; a signed-in user goes home. */
export const guestMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  if (await currentUser(request, context)) throw redirect("/");
  return next();
};
