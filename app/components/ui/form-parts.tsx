import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from "react";
import { useTranslation } from "react-i18next";
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

/** What a Field's input takes from its form: everything but what the Field itself ties together (id, class, aria). */
type FieldInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "className" | "aria-invalid" | "aria-describedby"> & {
  // Markers such as the overlays' data-autofocus (JSX allows them; an object's type must name them).
  [data: `data-${string}`]: string | undefined;
};

/** A Field's select instead of an input: its choices as value and text, and a class beside `input`. */
type FieldSelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, "id" | "aria-invalid" | "aria-describedby" | "children"> & {
  options: ReadonlyArray<readonly [value: string | number, text: string]>;
};

/**
 * A labelled text input (or `select`) with its hint and its problem, for every form: the control is named by the label
 * and described by both (hint first), and invalid while there is a problem. `children` come after the control
 * (a datalist, a button that fills it in). The control's id is `id`, or one of its own.
 */
export function Field({
  id: givenId,
  label,
  hint,
  error,
  input,
  select,
  children,
}: {
  id?: string;
  label: string;
  /** Shown under the field from the start (rules to follow, a format), and read with it. */
  hint?: string;
  error?: string;
  input?: FieldInputProps;
  select?: FieldSelectProps;
  children?: ReactNode;
}) {
  const ownId = useId();
  const id = givenId ?? ownId;
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  const tied = { id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy || undefined } as const;
  const { options, className, ...selectProps } = select ?? { options: [] };
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      {select ? (
        <select {...selectProps} {...tied} className={className ? `input ${className}` : "input"}>
          {options.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      ) : (
        <input {...input} {...tied} className="input" />
      )}
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-muted">
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} message={error} />
    </div>
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
