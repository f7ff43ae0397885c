import i18next from "i18next";
import { useTranslation } from "react-i18next";
import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/unsubscribe";
import { FormError, MailPage } from "~/components/account/mail-page";
import type { UnsubscribeData } from "~/lib/forms/account-mail-form";
import { refusedOffline, revalidateUnlessRefusedOffline } from "~/lib/pwa/offline-refusal";
import { briefingEmailOf, handleUnsubscribe } from "~/server/account-mail.server";
import { getI18n } from "~/server/i18n/middleware.server";

/**
 * A briefing email's unsubscribe link (`?token=…`, signed; no log-in). Opening it changes nothing
 * (mail scanners open links): the page asks, its button POSTs. A mail service's one-click
 * unsubscribe (RFC 8058) POSTs here from its own servers: no cookie, no Origin, so the checks
 * against cross-site form posts (same-origin.server.ts, React Router's own) let it through.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { t } = getI18n(context);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token, briefing: await briefingEmailOf(context, token), title: `${t("unsubscribe.title")} · ${t("app.name")}` };
}

export async function action({ request, context }: Route.ActionArgs) {
  return handleUnsubscribe(request, context, await request.formData(), getI18n(context));
}

export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  if (!navigator.onLine) return refusedOffline<UnsubscribeData>({ stopped: null, errors: { form: i18next.t("errors.offline") } });
  return serverAction();
}

export const shouldRevalidate = revalidateUnlessRefusedOffline;

export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.title }] : []);

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const busy = useNavigation().state === "submitting";
  const { briefing, token } = loaderData;
  const toSettings = (
    <p>
      <Link to="/settings?section=briefings" className="link">
        {t("unsubscribe.toSettings")}
      </Link>
    </p>
  );
  const stopped = actionData?.stopped ?? (briefing && !briefing.emailed ? briefing.briefingName : null);
  if (stopped !== null) {
    return (
      <MailPage title={t("unsubscribe.title")}>
        <p role="status">{t("unsubscribe.done", { name: stopped })}</p>
        {toSettings}
      </MailPage>
    );
  }
  if (!briefing) {
    return (
      <MailPage title={t("unsubscribe.title")}>
        <p>{t("unsubscribe.invalid")}</p>
        {toSettings}
      </MailPage>
    );
  }
  return (
    <MailPage title={t("unsubscribe.title")}>
      <Form method="post" className="flex flex-col gap-4">
        <p>{t("unsubscribe.ask", { name: briefing.briefingName })}</p>
        <input type="hidden" name="token" value={token} />
        <FormError message={actionData?.errors.form} />
        <div>
          <button type="submit" className="button" disabled={busy}>
            {t("unsubscribe.submit")}
          </button>
        </div>
      </Form>
    </MailPage>
  );
}
