import type { BriefingTable } from "../db/tables";
import { BRIEFING_CHANNELS } from "../../shared/enum-values";
import type { BriefingChannel } from "../../shared/schema-enums.generated";

/** A briefing's channels besides the inbox, as stored ("PUSH,EMAIL"; "" for the inbox alone). */
export const parseDelivery = (delivery: string) => (delivery ? (delivery.split(",") as BriefingChannel[]) : []);

/** Channels as stored: in the schema's order, each once. */
export const deliveryText = (channels: readonly BriefingChannel[]) =>
  BRIEFING_CHANNELS.filter((channel) => channels.includes(channel)).join(",");

export const emailsBriefing = (briefing: Pick<BriefingTable, "delivery">) => parseDelivery(briefing.delivery).includes("EMAIL");
