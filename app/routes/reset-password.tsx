import i18next from "i18next";
import { useTranslation } from "react-i18next";
import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/reset-password";
import { FormError, MailPage } from "~/components/account/mail-page";
import { Field } from "~/components/ui/form-parts";
import type { ResetPasswordData } from "~/lib/forms/account-mail-form";
import { getBrowserGraphQL } from "~/lib/graphql/browser-client";
import { replaceOfflinePages } from "~/lib/pwa/offline-caches";
import { refusedOffline, revalidateUnlessRefusedOffline } from "~/lib/pwa/offline-refusal";
import { handlePasswordReset } from "~/server/account-mail.server";
import { getI18n } from "~/server/i18n/middleware.server";

/** The page a reset mail's link opens (`?token=…`): a new password, once. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { t } = getI18n(context);
  return { token: new URL(request.url).searchParams.get("token") ?? "", title: `${t("passwordReset.newTitle")} · ${t("app.name")}` };
}

/** POST: the new password; on success every session of the account has ended, and the page goes to log in. */
export async function action({ request, context }: Route.ActionArgs) {
  return handlePasswordReset(request, context, await request.formData(), getI18n(context));
}

/** A reset may have ended this browser's session: the browser drops its cache, as a log-out does (routes/settings.tsx). */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  if (!navigator.onLine) return refusedOffline<ResetPasswordData>({ errors: { form: i18next.t("errors.offline") } });
  try {
    return await serverAction();
  } catch (thrown) {
    if (thrown instanceof Response && thrown.status >= 300 && thrown.status < 400) {
      getBrowserGraphQL().reset();
      await replaceOfflinePages();
    }
    throw thrown;
  }
}

export const shouldRevalidate = revalidateUnlessRefusedOffline;

export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.title }] : []);

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const busy = useNavigation().state === "submitting";
  const askAgain = (
    <Link to="/forgot-password" className="link">
      {t("passwordReset.askAgain")}
    </Link>
  );
  if (!loaderData.token) {
    return (
      <MailPage title={t("passwordReset.newTitle")}>
        <p>{t("passwordReset.missingToken")}</p>
        <p>{askAgain}</p>
      </MailPage>
    );
  }
  const errors = actionData?.errors ?? {};
  return (
    <MailPage title={t("passwordReset.newTitle")}>
      <Form method="post" className="flex flex-col gap-4" noValidate>
        <p className="text-muted">{t("passwordReset.newIntro")}</p>
        <input type="hidden" name="token" value={loaderData.token} />
        <Field
          label={t("passwordReset.newPassword")}
          error={errors.password}
          hint={t("account.passwordRules")}
          input={{ name: "password", type: "password", autoComplete: "new-password", required: true }}
        />
        <FormError message={errors.form}>{errors.tokenDead ? <p>{askAgain}</p> : null}</FormError>
        <div>
          <button type="submit" className="button" disabled={busy}>
            {t("passwordReset.save")}
          </button>
        </div>
      </Form>
    </MailPage>
  );
}
