import { useTranslation } from "react-i18next";
import { Form, useActionData, useNavigation } from "react-router";
import { FormError } from "~/components/account/mail-page";
import { Field } from "~/components/ui/form-parts";
import type { EmailChangeData } from "~/lib/forms/account-mail-form";

const isEmailChange = (value: unknown): value is EmailChangeData =>
  typeof value === "object" && value !== null && (value as { intent?: unknown }).intent === "changeEmail";

/**
 * Settings → Account, signed in: the account's address and a new one, confirmed by a link sent to
 * it (the address changes only then). Without mail the server cannot confirm one, and says so.
 * Works without JavaScript (the settings page's action, intent=changeEmail).
 */
export function EmailChangeForm({ email, mailAvailable }: { email: string; mailAvailable: boolean }) {
  const { t } = useTranslation();
  const answer = useActionData<unknown>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "changeEmail";
  const actionData = isEmailChange(answer) ? answer : null;
  const errors = actionData?.errors ?? {};
  return (
    <section aria-labelledby="email-change-heading" className="flex flex-col gap-3">
      <h3 id="email-change-heading" className="font-semibold">
        {t("emailChange.heading")}
      </h3>
      <p>{t("emailChange.current", { email })}</p>
      {!mailAvailable ? (
        <p className="text-muted">{t("emailChange.unavailable")}</p>
      ) : actionData?.sent ? (
        <p role="status">{t("emailChange.sent", { email: actionData.email, current: email })}</p>
      ) : (
        <Form method="post" className="flex flex-col gap-3" noValidate>
          <Field
            label={t("emailChange.newEmail")}
            error={errors.email}
            hint={t("emailChange.hint")}
            input={{ name: "email", type: "email", autoComplete: "email", defaultValue: actionData?.email, required: true }}
          />
          <FormError message={errors.form} />
          <div>
            <button type="submit" name="intent" value="changeEmail" className="button" disabled={busy}>
              {t("emailChange.submit")}
            </button>
          </div>
        </Form>
      )}
    </section>
  );
}
