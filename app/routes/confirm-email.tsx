import i18next from "i18next";
import { useTranslation } from "react-i18next";
import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/confirm-email";
import { FormError, MailPage } from "~/components/account/mail-page";
import type { ConfirmEmailData } from "~/lib/forms/account-mail-form";
import { refusedOffline, revalidateUnlessRefusedOffline } from "~/lib/pwa/offline-refusal";
import { handleEmailChangeConfirm } from "~/server/account-mail.server";
import { getI18n } from "~/server/i18n/middleware.server";

/**
 * The page an email change's link opens (`?token=…`). Opening it changes nothing: mail scanners
 * open links too. The button does it (POST), once, without a log-in (the link is the proof).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { t } = getI18n(context);
  return {
    token: new URL(request.url).searchParams.get("token") ?? "",
    title: `${t("emailChange.confirmTitle")} · ${t("app.name")}`,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  return handleEmailChangeConfirm(context, await request.formData(), getI18n(context));
}

export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  if (!navigator.onLine) return refusedOffline<ConfirmEmailData>({ confirmed: null, errors: { form: i18next.t("errors.offline") } });
  return serverAction();
}

export const shouldRevalidate = revalidateUnlessRefusedOffline;

export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.title }] : []);

export default function ConfirmEmail({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const busy = useNavigation().state === "submitting";
  const toSettings = (label: string) => (
    <Link to="/settings?section=account" className="link">
      {label}
    </Link>
  );
  if (actionData?.confirmed) {
    return (
      <MailPage title={t("emailChange.confirmTitle")}>
        <p role="status">{t("emailChange.confirmed", { email: actionData.confirmed })}</p>
        <p>{toSettings(t("emailChange.toSettings"))}</p>
      </MailPage>
    );
  }
  if (!loaderData.token) {
    return (
      <MailPage title={t("emailChange.confirmTitle")}>
        <p>{t("emailChange.missingToken")}</p>
        <p>{toSettings(t("emailChange.askAgain"))}</p>
      </MailPage>
    );
  }
  const errors = actionData?.errors ?? {};
  return (
    <MailPage title={t("emailChange.confirmTitle")}>
      <Form method="post" className="flex flex-col gap-4">
        <p>{t("emailChange.confirmIntro")}</p>
        <input type="hidden" name="token" value={loaderData.token} />
        <FormError message={errors.form}>{errors.tokenDead ? <p>{toSettings(t("emailChange.askAgain"))}</p> : null}</FormError>
        <div>
          <button type="submit" className="button" disabled={busy}>
            {t("emailChange.confirm")}
          </button>
        </div>
      </Form>
    </MailPage>
  );
}
