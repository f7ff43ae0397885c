import * as RadixTooltip from "@radix-ui/react-tooltip";
import { useLayoutEffect, useSyncExternalStore } from "react";
import { TOOLTIP_DELAYS, tooltipOpenDelay, tooltipSkipState } from "~/lib/tooltip-delay";
import { tooltipSwitch, type TooltipViewProps } from "./tooltip-switch";

const skipInactive = () => false;

/** Radix Tooltip around one trigger; the skip-delay window is shared by all of them. */
export default function RadixTooltipView({ content, children, tipId }: TooltipViewProps) {
  const skip = useSyncExternalStore(tooltipSkipState.subscribe, tooltipSkipState.isActive, skipInactive);

  useLayoutEffect(() => {
    if (tooltipSwitch.focusedTip !== tipId) return;
    tooltipSwitch.focusedTip = null;
    document.querySelector<HTMLElement>(`[data-tip="${CSS.escape(tipId)}"]`)?.focus();
  }, [tipId]);

  return (
    <RadixTooltip.Provider delayDuration={TOOLTIP_DELAYS.delayDurationMs} skipDelayDuration={0}>
      <RadixTooltip.Root
        delayDuration={tooltipOpenDelay(skip)}
        onOpenChange={(open) => (open ? tooltipSkipState.opened() : tooltipSkipState.closed())}
      >
        <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
        <RadixTooltip.Portal>
          <RadixTooltip.Content
            sideOffset={6}
            className="z-50 max-w-xs rounded-md bg-slate-900 px-2.5 py-1.5 text-sm text-white shadow-lg dark:bg-slate-100 dark:text-slate-900"
          >
            {content}
            <RadixTooltip.Arrow className="fill-slate-900 dark:fill-slate-100" />
          </RadixTooltip.Content>
        </RadixTooltip.Portal>
      </RadixTooltip.Root>
    </RadixTooltip.Provider>
  );
}
