import * as RadixTooltip from "@radix-ui/react-tooltip";
import { useLayoutEffect, useSyncExternalStore, type Ref } from "react";
import { TOOLTIP_DELAYS, tooltipOpenDelay, tooltipSkipState } from "~/lib/tooltip-delay";
import { TRIGGER_EVENTS, type TooltipViewProps, type TriggerBridge } from "./tooltip-bridge";

const TIP_CLASS = "z-50 max-w-xs rounded-md bg-slate-900 px-2.5 py-1.5 text-sm text-white shadow-lg dark:bg-slate-100 dark:text-slate-900";

const skipInactive = () => false;

function attachRef<T>(ref: Ref<T> | undefined, value: T): (() => void) | undefined {
  if (typeof ref === "function") {
    const cleanup = ref(value);
    return () => (typeof cleanup === "function" ? cleanup() : ref(null));
  }
  if (!ref) return undefined;
  ref.current = value;
  return () => {
    ref.current = null;
  };
}

type StandInProps = Record<string, unknown> & { bridge: TriggerBridge; ref?: Ref<HTMLElement | null> };

/**
 * Stands where Radix expects its trigger element and renders nothing: what Radix gives
 * the element (handlers, attributes, its ref) goes on to the real control (tooltip.tsx).
 */
function TriggerStandIn({ bridge, ref, ...given }: StandInProps) {
  const handlers: TriggerBridge["handlers"] = {};
  for (const name of TRIGGER_EVENTS) if (typeof given[name] === "function") handlers[name] = given[name] as never;
  const state = given["data-state"] as string | undefined;
  const describedBy = given["aria-describedby"] as string | undefined;

  useLayoutEffect(() => {
    bridge.handlers = handlers;
    bridge.setAttributes({ "data-state": state, "aria-describedby": describedBy });
  });
  useLayoutEffect(() => attachRef(ref, bridge.control()), [ref, bridge]);
  // A keyboard user who reached the control before tips loaded sees its tip, as if arriving now.
  useLayoutEffect(() => {
    const control = bridge.control();
    if (control && control === document.activeElement && control.matches(":focus-visible")) {
      bridge.handlers.onFocus?.(new FocusEvent("focus"));
    }
  }, [bridge]);
  return null;
}

/** Radix Tooltip for one control; the skip-delay window is shared by all of them. */
export default function RadixTooltipView({ content, bridge }: TooltipViewProps) {
  const skip = useSyncExternalStore(tooltipSkipState.subscribe, tooltipSkipState.isActive, skipInactive);
  return (
    <RadixTooltip.Provider delayDuration={TOOLTIP_DELAYS.delayDurationMs} skipDelayDuration={0}>
      <RadixTooltip.Root
        delayDuration={tooltipOpenDelay(skip)}
        onOpenChange={(open) => (open ? tooltipSkipState.opened() : tooltipSkipState.closed())}
      >
        <RadixTooltip.Trigger asChild>
          <TriggerStandIn bridge={bridge} />
        </RadixTooltip.Trigger>
        <RadixTooltip.Portal>
          <RadixTooltip.Content sideOffset={6} className={TIP_CLASS}>
            {content}
            <RadixTooltip.Arrow className="fill-slate-900 dark:fill-slate-100" />
          </RadixTooltip.Content>
        </RadixTooltip.Portal>
      </RadixTooltip.Root>
    </RadixTooltip.Provider>
  );
}
