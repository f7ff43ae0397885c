import type { SelectHTMLAttributes } from "react";
import { clockTimeText, clockTimes } from "~/lib/clock-times";
import { useDisplaySettings } from "~/lib/display-settings";

type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, "value" | "onChange" | "children">;

/**
 * A time of day on the reader's clock: "22:00" under the 24-hour setting, "10:00 PM" under the 12-hour one. The
 * browser's own time input writes its language's clock, whatever the setting says (issue 35). Values stay "HH:MM";
 * `none` (a label such as "All day") offers no time at all, as null.
 */
export function TimeSelect({
  value,
  onChange,
  none,
  hour12: givenHour12,
  ...select
}: SelectProps & { value: string | null; onChange: (value: string | null) => void; none?: string; hour12?: boolean }) {
  const settings = useDisplaySettings();
  const hour12 = givenHour12 ?? settings.hour12;
  return (
    <select {...select} className="input" value={value ?? ""} onChange={(event) => onChange(event.target.value || null)}>
      {none !== undefined ? <option value="">{none}</option> : null}
      {clockTimes(value).map((time) => (
        <option key={time} value={time}>
          {clockTimeText(time, settings.locale, hour12)}
        </option>
      ))}
    </select>
  );
}
