/**
 * A list row's on/off switch with a visible label ("On"; a bare box said nothing, issue 35), read by its full
 * name (`name`: "Commute is on"), which contains the visible word. The label is the switch's 44 px target.
 */
export function RowSwitch({
  checked,
  onChange,
  name,
  label,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  name: string;
  label: string;
}) {
  return (
    <label className="flex min-h-11 min-w-11 cursor-pointer flex-col items-center justify-center gap-0.5 text-xs text-muted">
      <input
        type="checkbox"
        role="switch"
        className="size-5 accent-primary"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      <span aria-hidden="true">{label}</span>
      <span className="sr-only">{name}</span>
    </label>
  );
}
