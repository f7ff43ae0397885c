import {
  cloneElement,
  startTransition,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ComponentType,
  type ReactElement,
  type Ref,
  type SyntheticEvent,
} from "react";
import { whenBrowserIdle } from "~/lib/browser-idle";
import {
  TRIGGER_EVENTS,
  type TooltipProps,
  type TooltipViewProps,
  type TriggerAttributes,
  type TriggerBridge,
  type TriggerEvent,
} from "./tooltip-bridge";

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

/** One idle callback for every tooltip on the page, not one each. */
let loadingWhenIdle: Promise<TooltipView | null> | null = null;
function loadTooltipViewWhenIdle(): Promise<TooltipView | null> {
  loadingWhenIdle ??= new Promise((resolve) => whenBrowserIdle(() => resolve(loadTooltipView())));
  return loadingWhenIdle;
}

function useTooltipView(): TooltipView | null {
  // Null while hydrating (nothing is loaded before the first idle moment), so the
  // browser's first render matches the server's.
  const [view, setView] = useState<TooltipView | null>(() => loadedView);
  useEffect(() => {
    if (view) return;
    let active = true;
    void loadTooltipViewWhenIdle().then((loaded) => {
      // Every control with a tip takes it at once: in a transition, so that render yields to input.
      if (active && loaded) startTransition(() => setView(() => loaded));
    });
    return () => {
      active = false;
    };
  }, [view]);
  return view;
}

type ControlProps = Partial<Record<TriggerEvent, (event: SyntheticEvent) => void>> & {
  ref?: Ref<HTMLElement | null>;
  "aria-describedby"?: string;
};

/** The control's own ref, and ours for the tip to anchor to. */
function useControlRef(own: Ref<HTMLElement | null> | undefined) {
  const control = useRef<HTMLElement | null>(null);
  const ref = useCallback(
    (node: HTMLElement | null) => {
      control.current = node;
      if (typeof own === "function") return own(node);
      if (own) own.current = node;
    },
    [own],
  );
  return [control, ref] as const;
}

/**
 * A tooltip for one control, typically an icon-only button (whose aria-label says the same).
 * The control is rendered here, in the same place before and after the tip loads, so it
 * keeps its DOM node (and focus, and a press in progress); the tip is rendered beside it.
 */
export function Tooltip({ content, children }: TooltipProps) {
  const View = useTooltipView();
  const own = (children as ReactElement<ControlProps>).props;
  const [control, ref] = useControlRef(own.ref);
  const [attributes, setAttributes] = useState<TriggerAttributes>({});
  const bridge = useMemo<TriggerBridge>(
    () => ({
      control: () => control.current,
      handlers: {},
      setAttributes: (next) =>
        setAttributes((current) =>
          current["data-state"] === next["data-state"] && current["aria-describedby"] === next["aria-describedby"] ? current : next,
        ),
    }),
    [control],
  );

  const props: ControlProps & { "data-state"?: string } = { ref };
  for (const name of TRIGGER_EVENTS) {
    props[name] = (event) => {
      own[name]?.(event);
      if (event.defaultPrevented) return;
      // Focus the keyboard did not bring shows no tip: focus given back after a tap (a dialog closed, a message
      // marked read) opened one on a phone, where nothing hovers away to close it (issue 35). Hover still shows it.
      if (name === "onFocus" && !(event.currentTarget as HTMLElement).matches(":focus-visible")) return;
      bridge.handlers[name]?.(event);
    };
  }
  props["data-state"] = attributes["data-state"];
  props["aria-describedby"] = [own["aria-describedby"], attributes["aria-describedby"]].filter(Boolean).join(" ") || undefined;

  return (
    <>
      {cloneElement(children as ReactElement<ControlProps>, props)}
      {View ? <View content={content} bridge={bridge} /> : null}
    </>
  );
}
