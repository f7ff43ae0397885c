import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useClient, useMutation } from "urql";
import {
  DELETE_PUSH_SUBSCRIPTION_MUTATION,
  PUSH_PUBLIC_KEY_QUERY,
  SAVE_PUSH_SUBSCRIPTION_MUTATION,
  UPDATE_SETTINGS_MUTATION,
} from "~/lib/graphql/later-documents";
import { currentPushSubscription, pushUnsupportedReason, subscribeToPush } from "~/lib/pwa/push-subscription";
import { pwaStore, usePwaState } from "~/lib/pwa/pwa-state";
import { showToast } from "~/lib/toast/toast-store";

/** "Install app" while the browser offers it; a plain statement once installed. */
function InstallApp() {
  const { t } = useTranslation();
  const { installPromptAvailable, installed } = usePwaState();
  if (installed) return <p data-testid="install-status">{t("pwa.installed")}</p>;
  return (
    <div className="flex flex-col items-start gap-2">
      <p className="text-sm text-muted">{installPromptAvailable ? t("pwa.installHint") : t("pwa.installUnavailable")}</p>
      {installPromptAvailable ? (
        <button type="button" className="button" onClick={() => void pwaStore.promptInstall()}>
          {t("pwa.install")}
        </button>
      ) : null}
    </div>
  );
}

type PushStatus = "unknown" | "on" | "off" | "unsupported";

/** This device's push subscription, switched through the service worker's pushManager. */
function PushToggle() {
  const { t } = useTranslation();
  const client = useClient();
  const { activated } = usePwaState();
  const [status, setStatus] = useState<PushStatus>("unknown");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [, savePushSubscription] = useMutation(SAVE_PUSH_SUBSCRIPTION_MUTATION);
  const [, deletePushSubscription] = useMutation(DELETE_PUSH_SUBSCRIPTION_MUTATION);
  const [, updateSettings] = useMutation(UPDATE_SETTINGS_MUTATION);

  useEffect(() => {
    if (pushUnsupportedReason()) return setStatus("unsupported");
    void currentPushSubscription().then((subscription) => setStatus(subscription ? "on" : "off"));
  }, [activated]);

  const fail = (message: string) => {
    setProblem(message);
    showToast({ title: message, variant: "error" });
  };

  async function turnOn() {
    const key = await client.query(PUSH_PUBLIC_KEY_QUERY, {}).toPromise();
    if (!key.data) return; // the error toast already explains it
    const outcome = await subscribeToPush(key.data.pushPublicKey);
    if (!outcome.ok) {
      if (outcome.reason === "denied") return fail(t("pwa.pushDenied"));
      if (outcome.reason === "no-worker") return fail(t("pwa.pushNeedsWorker"));
      if (outcome.reason === "timeout") return fail(t("pwa.pushTimedOut"));
      return fail(t("pwa.pushFailed"));
    }
    const saved = await savePushSubscription(outcome.keys);
    if (saved.error) return;
    await updateSettings({ input: { pushEnabled: true } });
    setStatus("on");
    showToast({ title: t("pwa.pushOn"), variant: "success" });
  }

  async function turnOff() {
    const subscription = await currentPushSubscription();
    if (subscription) {
      const deleted = await deletePushSubscription({ endpoint: subscription.endpoint });
      if (deleted.error) return;
      await subscription.unsubscribe();
    }
    setStatus("off");
    showToast({ title: t("pwa.pushOff"), variant: "success" });
  }

  if (status === "unsupported") return <p className="text-sm text-muted">{t("pwa.pushUnsupported")}</p>;
  return (
    <div className="flex flex-col gap-2">
      <label className="flex min-h-11 items-center gap-2">
        <input
          type="checkbox"
          role="switch"
          className="accent-primary"
          checked={status === "on"}
          disabled={busy || status === "unknown"}
          aria-describedby="push-hint"
          onChange={(event) => {
            const wanted = event.target.checked;
            setBusy(true);
            setProblem(null);
            void (wanted ? turnOn() : turnOff())
              // Whatever happened, the switch shows what this browser really has now.
              .then(() => currentPushSubscription())
              .then((subscription) => setStatus(subscription ? "on" : "off"))
              .finally(() => setBusy(false));
          }}
        />
        {t("pwa.pushLabel")}
      </label>
      <p id="push-hint" className="text-sm text-muted">
        {t("pwa.pushHint")}
      </p>
      {problem ? (
        <p role="alert" className="text-sm text-error" data-testid="push-problem">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

/** Settings' "App and notifications": installing the app and this device's push notifications. */
export function AppSection({ signedIn }: { signedIn: boolean }) {
  return (
    <div className="flex flex-col gap-4">
      <InstallApp />
      {signedIn ? <PushToggle /> : null}
    </div>
  );
}
