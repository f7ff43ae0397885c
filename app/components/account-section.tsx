import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, useActionData, useNavigation, useSearchParams } from "react-router";
import type { AccountActionData } from "~/lib/account.server";

function Field({
  name,
  type,
  label,
  error,
  defaultValue,
  autoComplete,
}: {
  name: string;
  type: string;
  label: string;
  error?: string;
  defaultValue?: string;
  autoComplete: string;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        defaultValue={defaultValue}
        autoComplete={autoComplete}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className="input"
      />
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-700 dark:text-red-300" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Sign up / log in (one form, two buttons) or, signed in, who you are and log out. Works without JavaScript. */
export function AccountSection({ email }: { email: string | null }) {
  const { t } = useTranslation();
  const actionData = useActionData<AccountActionData>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  // Sent here by the `auth` middleware: go back there once signed in (otherwise the server sends you Home).
  const redirectTo = useSearchParams()[0].get("redirectTo");
  // The browser's time zone becomes the new account's; without JavaScript the API uses UTC.
  const [timeZone, setTimeZone] = useState("");
  useEffect(() => setTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone), []);

  if (email) {
    return (
      <Form method="post" className="flex flex-wrap items-center gap-3">
        <p>{t("account.signedInAs", { email })}</p>
        <button type="submit" name="intent" value="logout" className="button" disabled={busy}>
          {t("account.logOut")}
        </button>
      </Form>
    );
  }
  const errors = actionData?.errors ?? {};
  return (
    <Form method="post" className="flex flex-col gap-4" noValidate>
      <p className="text-muted">{t("account.intro")}</p>
      <input type="hidden" name="timeZone" value={timeZone} />
      {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
      <Field name="email" type="email" label={t("account.email")} error={errors.email} defaultValue={actionData?.email} autoComplete="email" />
      <Field
        name="password"
        type="password"
        label={t("account.password")}
        error={errors.password}
        autoComplete={actionData?.intent === "signup" ? "new-password" : "current-password"}
      />
      {errors.form ? (
        <p className="text-sm text-red-700 dark:text-red-300" role="alert">
          {errors.form}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-3">
        <button type="submit" name="intent" value="login" className="button" disabled={busy}>
          {t("account.logIn")}
        </button>
        <button type="submit" name="intent" value="signup" className="button-secondary" disabled={busy}>
          {t("account.signUp")}
        </button>
      </div>
    </Form>
  );
}
