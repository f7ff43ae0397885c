import i18next from "i18next";
import { useTranslation } from "react-i18next";
import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/forgot-password";
import { FormError, MailPage } from "~/components/account/mail-page";
import { Field } from "~/components/ui/form-parts";
import type { ResetRequestData } from "~/lib/forms/account-mail-form";
import { MAIL_AVAILABLE_QUERY } from "~/lib/graphql/later-documents";
import { refusedOffline, revalidateUnlessRefusedOffline } from "~/lib/pwa/offline-refusal";
import { handleResetRequest } from "~/server/account-mail.server";
import { loadQuery } from "~/server/graphql/request-client.server";
import { getI18n } from "~/server/i18n/middleware.server";

/** Whether this server can mail a reset link at all (without SMTP it says so, and offers nothing). */
export async function loader({ context }: Route.LoaderArgs) {
  const { mailAvailable } = await loadQuery(context, MAIL_AVAILABLE_QUERY, {});
  const { t } = getI18n(context);
  return { mailAvailable, title: `${t("passwordReset.title")} · ${t("app.name")}` };
}

/** POST: mails a reset link to the address if an account uses it; the answer is the same either way. */
export async function action({ request, context }: Route.ActionArgs) {
  return handleResetRequest(context, await request.formData(), getI18n(context));
}

/** Offline the request cannot be made: the form says so and keeps the address. */
export async function clientAction({ serverAction, request }: Route.ClientActionArgs) {
  if (navigator.onLine) return serverAction();
  const email = String((await request.formData()).get("email") ?? "");
  return refusedOffline<ResetRequestData>({ email, sent: false, errors: { form: i18next.t("errors.offline") } });
}

export const shouldRevalidate = revalidateUnlessRefusedOffline;

export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.title }] : []);

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const busy = useNavigation().state === "submitting";
  const back = (
    <Link to="/settings?section=account" className="link">
      {t("passwordReset.backToLogIn")}
    </Link>
  );
  if (!loaderData.mailAvailable) {
    return (
      <MailPage title={t("passwordReset.title")}>
        <p>{t("passwordReset.unavailable")}</p>
        <p>{back}</p>
      </MailPage>
    );
  }
  if (actionData?.sent) {
    return (
      <MailPage title={t("passwordReset.title")}>
        <p role="status">{t("passwordReset.sent", { email: actionData.email })}</p>
        <p>{back}</p>
      </MailPage>
    );
  }
  const errors = actionData?.errors ?? {};
  return (
    <MailPage title={t("passwordReset.title")}>
      <Form method="post" className="flex flex-col gap-4" noValidate>
        <p className="text-muted">{t("passwordReset.intro")}</p>
        <Field
          label={t("account.email")}
          error={errors.email}
          input={{ name: "email", type: "email", autoComplete: "email", defaultValue: actionData?.email, required: true }}
        />
        <FormError message={errors.form} />
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" className="button" disabled={busy}>
            {t("passwordReset.send")}
          </button>
          {back}
        </div>
      </Form>
    </MailPage>
  );
}
