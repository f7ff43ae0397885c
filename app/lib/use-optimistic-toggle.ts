import { useEffect, useState } from "react";

/**
 * A switch that moves the moment it is pressed and moves back if saving fails; the
 * saved value wins whenever it changes.
 */
export function useOptimisticToggle(saved: boolean, save: (next: boolean) => Promise<{ error?: unknown }>) {
  const [value, setValue] = useState(saved);
  useEffect(() => setValue(saved), [saved]);
  async function toggle(next: boolean) {
    setValue(next);
    const result = await save(next);
    if (result.error) setValue(!next);
  }
  return [value, toggle] as const;
}
