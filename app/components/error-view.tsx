import { useTranslation } from "react-i18next";
import { isRouteErrorResponse } from "react-router";
import { useShownRequestId } from "~/lib/request-id";

/** Status, title and description of anything a route can throw. */
export function describeError(error: unknown): { status: number; message: string | null; stack: string | null } {
  if (isRouteErrorResponse(error)) {
    const payload = error.data as { message?: unknown } | string | undefined;
    const message = typeof payload === "string" ? payload : typeof payload?.message === "string" ? payload.message : error.statusText;
    return { status: error.status, message: message || null, stack: null };
  }
  if (error instanceof Error) {
    // In production React Router has already replaced an unexpected error's message and
    // stack ("Unexpected Server Error"), so nothing internal reaches the page.
    return { status: 500, message: error.message, stack: import.meta.env.DEV ? (error.stack ?? null) : null };
  }
  return { status: 500, message: null, stack: null };
}

/** The error page: "Page Not Found" for 404, "Internal Server Error" for anything else. */
export function ErrorView({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const { status, message, stack } = describeError(error);
  const shownRequestId = useShownRequestId();
  // A server error's request id lets whoever reads the logs find this very request.
  const requestId = status >= 500 ? shownRequestId : null;
  const title = status === 404 ? t("errors.notFoundTitle") : t("errors.serverErrorTitle");
  return (
    <section className="mx-auto max-w-xl py-16 text-center" data-testid="error-page" data-status={status}>
      <title>{`${title} · ${t("app.name")}`}</title>
      {/* "Error 404" over "Page Not Found" said it twice (issue 35): the not-found page is its two texts alone. */}
      {status === 404 ? null : <p className="mb-2 text-sm font-semibold text-primary-strong">{t("errors.status", { status })}</p>}
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      <p className="mt-4 text-muted" data-testid="error-description">
        {message ?? t("errors.unexpected")}
      </p>
      {requestId ? (
        <p className="mt-4 text-sm text-muted" data-testid="error-request-id">
          {t("errors.requestId", { id: requestId })}
        </p>
      ) : null}
      {stack ? <pre className="mt-6 overflow-auto rounded bg-muted p-4 text-left text-xs">{stack}</pre> : null}
      <a href="/" className="button mt-8 inline-flex">
        {t("errors.backHome")}
      </a>
    </section>
  );
}
