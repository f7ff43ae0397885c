import type { Route } from "./+types/account-export";
import { accountExportResponse } from "~/server/account-export.server";
import { getI18n } from "~/server/i18n/middleware.server";

/** GET: the signed-in account's data as one JSON file, a download (app/server/account-export.server.ts). */
export function loader({ request, context }: Route.LoaderArgs) {
  const { t } = getI18n(context);
  return accountExportResponse(request, context, (problem) => t(`accountSecurity.export.${problem}`));
}
