import { useTranslation } from "react-i18next";
import { useMutation, useQuery } from "urql";
import { TrashIcon } from "~/components/icons";
import { RowSwitch } from "~/components/ui/row-switch";
import { Tooltip } from "~/components/ui/tooltip";
import { formatWhen, useDisplaySettings } from "~/lib/display-settings";
import {
  BRIEFINGS_QUERY,
  DELETE_BRIEFING_MUTATION,
  RESTORE_BRIEFING_MUTATION,
  SAVE_BRIEFING_MUTATION,
  SEND_BRIEFING_NOW_MUTATION,
} from "~/lib/graphql/later-documents";
import type { BriefingFieldsFragment as Briefing } from "~/lib/graphql/documents.generated";
import { openOverlay } from "~/lib/overlays/overlay-store";
import { focusAfterRemoval } from "~/lib/focus-after-removal";
import { showToast } from "~/lib/toast/toast-store";
import { showUndoToast } from "~/lib/toast/undo-toast";
import { useOptimisticToggle } from "~/lib/use-optimistic-toggle";
import { formatClock } from "~/shared/units";
import { weekdayList } from "~/lib/weekdays";

function BriefingRow({ briefing }: { briefing: Briefing }) {
  const { t } = useTranslation();
  const settings = useDisplaySettings();
  const [, saveBriefing] = useMutation(SAVE_BRIEFING_MUTATION);
  const [, deleteBriefing] = useMutation(DELETE_BRIEFING_MUTATION);
  const [, restoreBriefing] = useMutation(RESTORE_BRIEFING_MUTATION);
  const [{ fetching: sending }, sendNow] = useMutation(SEND_BRIEFING_NOW_MUTATION);
  const [hours, minutes] = briefing.time.split(":").map(Number);
  // A wall-clock time of the user's day, written in their clock style.
  const time = formatClock(new Date(Date.UTC(2024, 0, 1, hours, minutes)), settings.locale, "UTC", settings.hour12);
  const next = briefing.nextRunAt ? formatWhen(briefing.nextRunAt, settings) : null;

  const [enabled, toggleEnabled] = useOptimisticToggle(briefing.enabled, (next) => saveEnabled(next));
  function saveEnabled(enabled: boolean) {
    return saveBriefing({
      id: briefing.id,
      input: {
        name: briefing.name,
        enabled,
        period: briefing.period,
        time: briefing.time,
        days: briefing.days,
        placeIds: briefing.places.map((place) => place.id),
      },
    });
  }

  return (
    <li className="settings-row" data-briefing-id={briefing.id}>
      <RowSwitch
        checked={enabled}
        onChange={(next) => void toggleEnabled(next)}
        name={t("briefings.enabled", { name: briefing.name })}
        label={t("briefings.switchLabel")}
      />
      <div className="min-w-0">
        <p className="font-medium">{briefing.name}</p>
        <p className="text-sm text-muted">
          {t(`briefings.period.${briefing.period}`)} · {briefing.places.map((place) => place.label).join(", ")} ·{" "}
          {t("briefings.schedule", { days: weekdayList(briefing.days, settings.locale, t("briefings.everyDay")), time })}
          {briefing.delivery.includes("EMAIL") ? ` · ${t("briefings.byEmail")}` : null}
        </p>
        <p className="text-xs text-muted">{enabled && next ? t("briefings.next", { when: next }) : t("briefings.off")}</p>
      </div>
      <div className="settings-row-actions">
        <button
          type="button"
          className="button-secondary px-3 py-1 text-sm"
          disabled={sending}
          onClick={async () => {
            const result = await sendNow({ id: briefing.id });
            if (!result.error) showToast({ title: t("briefings.sent"), variant: "success" });
          }}
        >
          {t("briefings.sendNow")}
        </button>
        <button type="button" className="button-secondary px-3 py-1 text-sm" onClick={() => openOverlay("briefing", { id: briefing.id })}>
          <span aria-hidden="true">{t("briefings.editButton")}</span>
          <span className="sr-only">{t("briefings.edit", { name: briefing.name })}</span>
        </button>
        <Tooltip content={t("briefings.delete", { name: briefing.name })}>
          <button
            type="button"
            className="icon-button"
            aria-label={t("briefings.delete", { name: briefing.name })}
            data-control="delete"
            onClick={async (event) => {
              const refocus = focusAfterRemoval(event.currentTarget, {
                row: "data-briefing-id",
                control: "delete",
                fallbackId: "briefings-heading",
              });
              const result = await deleteBriefing({ id: briefing.id });
              if (result.error) return;
              refocus();
              showUndoToast({
                title: t("briefings.deleted", { name: briefing.name }),
                undoLabel: t("managePlaces.undo"),
                restore: () => restoreBriefing({ id: briefing.id }),
                restoredTitle: t("briefings.restored", { name: briefing.name }),
              });
            }}
          >
            <TrashIcon />
          </button>
        </Tooltip>
      </div>
    </li>
  );
}

/** The user's briefings: switch on and off, send a test now, edit in an overlay, delete. */
export function ManageBriefings() {
  const { t } = useTranslation();
  const [briefings] = useQuery({ query: BRIEFINGS_QUERY });
  const list = briefings.data?.briefings ?? [];
  return (
    <div className="flex flex-col gap-3">
      {list.length === 0 ? (
        <p className="text-muted">{t("briefings.empty")}</p>
      ) : (
        <ul className="@container flex flex-col divide-y divide-default" data-testid="briefings">
          {list.map((briefing) => (
            <BriefingRow key={briefing.id} briefing={briefing} />
          ))}
        </ul>
      )}
      <div>
        <button type="button" className="button" onClick={() => openOverlay("briefing")}>
          {t("briefings.new")}
        </button>
      </div>
    </div>
  );
}
