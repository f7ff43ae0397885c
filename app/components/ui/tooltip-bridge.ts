import type { ReactElement, ReactNode, SyntheticEvent } from "react";

// Shared by the plain tooltip and its lazily loaded Radix view, apart from both so that
// neither imports the other (the view is loaded with import() by tooltip.tsx).

export type TooltipProps = { content: ReactNode; children: ReactElement };

/** The handlers Radix's tooltip trigger puts on its element (@radix-ui/react-tooltip 1.x). */
export const TRIGGER_EVENTS = ["onPointerMove", "onPointerLeave", "onPointerDown", "onFocus", "onBlur", "onClick"] as const;
export type TriggerEvent = (typeof TRIGGER_EVENTS)[number];

/** The attributes it sets: whether the tip is open, and the tip as the control's description while it is. */
export type TriggerAttributes = { "data-state"?: string; "aria-describedby"?: string };

/**
 * How the Radix view reaches the control it tips without wrapping it: wrapping would put
 * the control's DOM node under new parents, and React would replace it when the view
 * loads (a tap or a key press in that moment would be lost, and so would focus).
 */
export type TriggerBridge = {
  /** The control's DOM node, for Radix to anchor the tip to and to watch. */
  control: () => HTMLElement | null;
  /** Radix's handlers, called after the control's own unless that one prevented the default. */
  handlers: Partial<Record<TriggerEvent, (event: SyntheticEvent | Event) => void>>;
  setAttributes: (attributes: TriggerAttributes) => void;
};

export type TooltipViewProps = { content: ReactNode; bridge: TriggerBridge };
