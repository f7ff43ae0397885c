import i18next from "i18next";
import type { AccountActionData } from "./forms/account-form";
import { refusedOffline, type OfflineRefusal } from "./pwa/offline-refusal";
import { showToast } from "./toast/toast-store";

/**
 * The account forms' answer while the browser is offline: log-in and sign-up say at the
 * form that they need a connection (keeping the email), log-out says it in a toast.
 */
export function offlineAccountAction(form: FormData): (AccountActionData & OfflineRefusal) | OfflineRefusal {
  const intent = form.get("intent");
  if (intent !== "login" && intent !== "signup") {
    showToast({ title: i18next.t("errors.offline"), variant: "error" });
    return refusedOffline({});
  }
  return refusedOffline({ intent, email: String(form.get("email") ?? ""), errors: { form: i18next.t("errors.offline") } });
}
