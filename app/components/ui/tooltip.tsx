import { cloneElement, useEffect, useId, useState, type ComponentType, type ReactElement } from "react";
import { whenBrowserIdle } from "~/lib/browser-idle";
import { tooltipSwitch, type TooltipProps, type TooltipViewProps } from "./tooltip-switch";

export type { TooltipProps, TooltipViewProps };

type TooltipView = ComponentType<TooltipViewProps>;

/*
 * Radix Tooltip and its positioning engine are not needed to paint or use the page, so
 * they load once the browser is idle. Until then a control renders plainly and works
 * (its aria-label already says what the tooltip says); if the chunk cannot load, it
 * simply stays untipped.
 */
let loadedView: TooltipView | null = null;
let loading: Promise<TooltipView | null> | null = null;

function loadTooltipView(): Promise<TooltipView | null> {
  loading ??= import("./tooltip-radix").then(
    (module) => (loadedView = module.default),
    (error: unknown) => {
      console.warn("[tooltip] could not load tooltips:", error);
      return null;
    },
  );
  return loading;
}

function useTooltipView(): TooltipView | null {
  // Null while hydrating (nothing is loaded before the first idle moment), so the
  // browser's first render matches the server's.
  const [view, setView] = useState<TooltipView | null>(() => loadedView);
  useEffect(() => {
    if (view) return;
    let active = true;
    const cancelIdle = whenBrowserIdle(() => {
      void loadTooltipView().then((loaded) => {
        if (!active || !loaded) return;
        tooltipSwitch.focusedTip ??= document.activeElement?.getAttribute("data-tip") ?? null;
        setView(() => loaded);
      });
    });
    return () => {
      active = false;
      cancelIdle();
    };
  }, [view]);
  return view;
}

/** A tooltip for one control, typically an icon-only button (whose aria-label says the same). */
export function Tooltip({ content, children }: TooltipProps) {
  const tipId = useId();
  const View = useTooltipView();
  const trigger = cloneElement(children as ReactElement<Record<string, unknown>>, { "data-tip": tipId });
  if (!View) return trigger;
  return (
    <View content={content} tipId={tipId}>
      {trigger}
    </View>
  );
}
