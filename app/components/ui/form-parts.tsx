import type { ReactNode } from "react";
import { useTranslation } from "~/lib/i18n/use-translation";
import { CloseIcon } from "~/components/icons";
import { WEEKDAYS } from "~/shared/enum-values";
import type { Weekday } from "~/shared/schema-enums.generated";
import type { OverlayName } from "~/lib/overlays/registry";
import { weekdayName } from "~/lib/weekdays";

/** An overlay's title (it names the dialog: `overlay-{name}-title`) and its close button. */
export function OverlayHeader({ name, title, close }: { name: OverlayName; title: ReactNode; close: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="flex items-start justify-between gap-4">
      <h2 id={`overlay-${name}-title`} className="text-lg font-semibold">
        {title}
      </h2>
      <button type="button" onClick={close} aria-label={t("overlay.close")} className="icon-button">
        <CloseIcon />
      </button>
    </div>
  );
}

/** A field's problem, announced, and referenced by the field's aria-describedby (`id`). */
export function FieldError({ id, message }: { id: string; message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="text-sm text-red-700 dark:text-red-300">
      {message}
    </p>
  );
}

/** A fieldset of checkboxes choosing some of `options`, in their order; chosen values it does not offer are kept. */
export function CheckboxChoices<T extends string>({
  legend,
  options,
  value,
  onChange,
  label,
  errorId,
  error,
}: {
  legend: string;
  options: readonly T[];
  value: readonly T[];
  onChange: (chosen: T[]) => void;
  label: (option: T) => ReactNode;
  errorId: string;
  error: string | null | undefined;
}) {
  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend className="mb-2 font-medium">{legend}</legend>
      <div className="flex flex-wrap gap-2">
        {options.map((option) => (
          <label key={option} className="choice">
            <input
              type="checkbox"
              className="accent-primary"
              checked={value.includes(option)}
              // Values this picker does not offer (saved elsewhere) are kept, ahead of the offered ones, in option order.
              onChange={(event) =>
                onChange([
                  ...value.filter((other) => !options.includes(other)),
                  ...options.filter((other) => (other === option ? event.target.checked : value.includes(other))),
                ])
              }
            />
            {label(option)}
          </label>
        ))}
      </div>
      <FieldError id={errorId} message={error} />
    </fieldset>
  );
}

/** Weekday checkboxes (short names shown, full names read out), in week order. */
export function WeekdayChoices(props: {
  legend: string;
  value: Weekday[];
  onChange: (days: Weekday[]) => void;
  errorId: string;
  error: string | null | undefined;
}) {
  const { i18n } = useTranslation();
  return (
    <CheckboxChoices
      {...props}
      options={WEEKDAYS}
      label={(day) => (
        <>
          <span aria-hidden="true">{weekdayName(day, i18n.language)}</span>
          <span className="sr-only">{weekdayName(day, i18n.language, "long")}</span>
        </>
      )}
    />
  );
}
