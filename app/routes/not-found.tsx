import { data } from "react-router";
import type { Route } from "./+types/not-found";
import { getI18n } from "~/server/i18n/middleware.server";

/** Every path no other route claims: a 404 with the path in the message. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { t } = getI18n(context);
  throw data({ message: t("errors.pageNotFound", { path: new URL(request.url).pathname }) }, { status: 404 });
}

export default function NotFound() {
  return null;
}
