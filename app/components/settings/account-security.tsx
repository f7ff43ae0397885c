import { useId, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Form, useActionData, useNavigation } from "react-router";
import { useQuery } from "urql";
import { Field } from "~/components/ui/form-parts";
import { useNow } from "~/lib/display-settings";
import type { AccountSecurityActionData, AccountSecurityIntent } from "~/lib/forms/account-security-form";
import type { AccountSessionsQuery } from "~/lib/graphql/documents.generated";
import { ACCOUNT_SESSIONS_QUERY } from "~/lib/graphql/later-documents";
import { formatRelativeAge } from "~/lib/relative-age";

/** Where the export downloads from (app/routes/resources/account-export.ts). */
export const ACCOUNT_EXPORT_PATH = "/resources/account-export";

type AccountSession = NonNullable<AccountSessionsQuery["me"]>["sessions"][number];

/** The action's answer when it refused this form's intent. */
function useRefusal<I extends AccountSecurityIntent>(intent: I): Extract<AccountSecurityActionData, { intent: I }>["errors"] | undefined {
  const answer = useActionData<AccountSecurityActionData>();
  return answer?.intent === intent ? (answer.errors as Extract<AccountSecurityActionData, { intent: I }>["errors"]) : undefined;
}

function useBusy(): boolean {
  return useNavigation().state === "submitting";
}

function FormProblem({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p className="text-sm text-red-700 dark:text-red-300" role="alert">
      {message}
    </p>
  );
}

function Part({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3 border-t border-default pt-5">
      <h3 id={id} className="font-semibold">
        {title}
      </h3>
      {children}
    </section>
  );
}

function ChangePassword() {
  const { t } = useTranslation();
  const errors = useRefusal("changePassword") ?? {};
  const busy = useBusy();
  return (
    <Part title={t("accountSecurity.password.heading")}>
      <Form method="post" className="flex flex-col gap-4" noValidate>
        <Field
          label={t("accountSecurity.password.current")}
          error={errors.currentPassword}
          input={{ name: "currentPassword", type: "password", autoComplete: "current-password" }}
        />
        <Field
          label={t("accountSecurity.password.new")}
          error={errors.newPassword}
          hint={t("account.passwordRules")}
          input={{ name: "newPassword", type: "password", autoComplete: "new-password" }}
        />
        <FormProblem message={errors.form} />
        <div>
          <button type="submit" name="intent" value="changePassword" className="button" disabled={busy}>
            {t("accountSecurity.password.submit")}
          </button>
        </div>
      </Form>
    </Part>
  );
}

function SessionItem({ session, now }: { session: AccountSession; now: number }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const busy = useBusy();
  const device = t("accountSecurity.sessions.device", {
    browser: session.browser ?? t("accountSecurity.sessions.unknownBrowser"),
    os: session.os ?? t("accountSecurity.sessions.unknownOs"),
  });
  const when = (iso: string) => formatRelativeAge(i18n.language, Date.parse(iso), now);
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3" data-session-id={session.id}>
      <div id={id} className="flex flex-col gap-1">
        <p>
          <span className="font-medium">{device}</span>
          <span className="text-muted"> · {t(`accountSecurity.sessions.types.${session.deviceType}`)}</span>
          {session.current ? <span className="badge ms-2 px-2">{t("accountSecurity.sessions.current")}</span> : null}
        </p>
        <p className="text-sm text-muted">
          {t("accountSecurity.sessions.lastSeen", { when: when(session.lastSeenAt) })} ·{" "}
          {t("accountSecurity.sessions.signedIn", { when: when(session.createdAt) })}
        </p>
      </div>
      {session.current ? null : (
        <Form method="post">
          <input type="hidden" name="sessionId" value={session.id} />
          <button type="submit" name="intent" value="endSession" className="button-secondary" aria-describedby={id} disabled={busy}>
            {t("accountSecurity.sessions.logOut")}
          </button>
        </Form>
      )}
    </li>
  );
}

function Sessions() {
  const { t } = useTranslation();
  const [{ data }] = useQuery({ query: ACCOUNT_SESSIONS_QUERY });
  const now = useNow();
  const busy = useBusy();
  const endOne = useRefusal("endSession");
  const endOthers = useRefusal("endOtherSessions");
  const errors: { form?: string } = endOne ?? endOthers ?? {};
  const sessions = data?.me?.sessions ?? [];
  const others = sessions.filter((session) => !session.current).length;
  return (
    <Part title={t("accountSecurity.sessions.heading")}>
      <p className="text-sm text-muted">{t("accountSecurity.sessions.intro")}</p>
      <ul className="divide-y divide-default">
        {sessions.map((session) => (
          <SessionItem key={session.id} session={session} now={now} />
        ))}
      </ul>
      <FormProblem message={errors.form} />
      {others > 0 ? (
        <Form method="post">
          <button type="submit" name="intent" value="endOtherSessions" className="button-secondary" disabled={busy}>
            {t("accountSecurity.sessions.logOutOthers")}
          </button>
        </Form>
      ) : (
        <p className="text-sm">{t("accountSecurity.sessions.noOthers")}</p>
      )}
    </Part>
  );
}

function DataExport() {
  const { t } = useTranslation();
  return (
    <Part title={t("accountSecurity.export.heading")}>
      <p className="text-sm text-muted">{t("accountSecurity.export.intro")}</p>
      <div>
        {/* A document request, not a client navigation: the answer is a file. */}
        <a href={ACCOUNT_EXPORT_PATH} download className="button-secondary">
          {t("accountSecurity.export.download")}
        </a>
      </div>
    </Part>
  );
}

function DeleteAccount() {
  const { t } = useTranslation();
  const errors = useRefusal("deleteAccount") ?? {};
  const busy = useBusy();
  return (
    <Part title={t("accountSecurity.delete.heading")}>
      <p className="text-sm">{t("accountSecurity.delete.warning")}</p>
      <Form method="post" className="flex flex-col gap-4" noValidate>
        <Field
          label={t("accountSecurity.delete.password")}
          error={errors.password}
          input={{ name: "password", type: "password", autoComplete: "current-password" }}
        />
        <FormProblem message={errors.form} />
        <div>
          <button
            type="submit"
            name="intent"
            value="deleteAccount"
            className="button-secondary border-red-700 text-red-700 dark:border-red-300 dark:text-red-300"
            disabled={busy}
          >
            {t("accountSecurity.delete.submit")}
          </button>
        </div>
      </Form>
    </Part>
  );
}

/**
 * The signed-in account's own business, under the account section: its password, where it is signed in, its data as
 * a file, its deletion. Forms post to the settings page's action, so they work without JavaScript.
 */
export function AccountSecurity() {
  return (
    <div className="mt-6 flex flex-col gap-6">
      <ChangePassword />
      <Sessions />
      <DataExport />
      <DeleteAccount />
    </div>
  );
}
