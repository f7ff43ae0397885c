import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, useActionData, useNavigation, useSearchParams } from "react-router";
import type { AccountActionData } from "~/lib/forms/account-form";
import { EmailChangeForm } from "~/components/account/email-change-form";
import { Field } from "~/components/ui/form-parts";

/**
 * Sign up / log in (one form, two buttons) or, signed in, who you are and log out. Works without JavaScript.
 * `mailAvailable`: the server sends mail, so a forgotten password can be reset by a link.
 */
export function AccountSection({ email, mailAvailable }: { email: string | null; mailAvailable: boolean }) {
  const { t } = useTranslation();
  const actionData = useActionData<AccountActionData>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  // Sent here by the `auth` middleware: go back there once signed in (otherwise the server sends you Home).
  const [searchParams] = useSearchParams();
  const redirectTo = searchParams.get("redirectTo");
  // The browser's time zone becomes the new account's; without JavaScript the API uses UTC.
  const [timeZone, setTimeZone] = useState("");
  useEffect(() => setTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone), []);

  if (email) {
    return (
      <div className="flex flex-col gap-6">
        <Form method="post" className="flex flex-wrap items-center gap-3">
          <p>{t("account.signedInAs", { email })}</p>
          <button type="submit" name="intent" value="logout" className="button" disabled={busy}>
            {t("account.logOut")}
          </button>
        </Form>
        <EmailChangeForm email={email} mailAvailable={mailAvailable} />
      </div>
    );
  }
  const errors = actionData?.errors ?? {};
  // Log in or sign up: one at a time, so that password managers fill a saved password
  // only for logging in and offer a new one for signing up. A link switches (with or without JavaScript).
  const mode = actionData?.intent ?? (searchParams.get("mode") === "signup" ? "signup" : "login");
  const other = new URLSearchParams(searchParams);
  if (mode === "login") other.set("mode", "signup");
  else other.delete("mode");
  return (
    <Form method="post" className="flex flex-col gap-4" noValidate>
      <p className="text-muted">{t("account.intro")}</p>
      <input type="hidden" name="timeZone" value={timeZone} />
      {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
      <Field
        label={t("account.email")}
        error={errors.email}
        input={{ name: "email", type: "email", defaultValue: actionData?.email, autoComplete: "email" }}
      />
      <Field
        label={t("account.password")}
        error={errors.password}
        hint={mode === "signup" ? t("account.passwordRules") : undefined}
        input={{ name: "password", type: "password", autoComplete: mode === "signup" ? "new-password" : "current-password" }}
      />
      {mode === "login" && mailAvailable ? (
        <p>
          <Link to="/forgot-password" className="link">
            {t("account.forgotPassword")}
          </Link>
        </p>
      ) : null}
      {errors.form ? (
        <p className="text-sm text-red-700 dark:text-red-300" role="alert">
          {errors.form}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" name="intent" value={mode} className="button" disabled={busy}>
          {mode === "signup" ? t("account.signUp") : t("account.logIn")}
        </button>
        <Link to={{ search: `?${other}` }} replace preventScrollReset className="link">
          {mode === "signup" ? t("account.toLogIn") : t("account.toSignUp")}
        </Link>
      </div>
    </Form>
  );
}
