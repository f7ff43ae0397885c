import type { ReactElement, ReactNode } from "react";

// Shared by the plain tooltip and its lazily loaded Radix view, apart from both so that
// neither imports the other (the view is loaded with import() by tooltip.tsx).

export type TooltipProps = { content: ReactNode; children: ReactElement };
export type TooltipViewProps = TooltipProps & { tipId: string };

/**
 * Switching to the Radix view replaces the trigger's DOM node; the `data-tip` of the
 * trigger that had focus at that moment lets the new node take the focus back.
 */
export const tooltipSwitch = { focusedTip: null as string | null };
