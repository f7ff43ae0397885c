import type { MessageTable, SettingsTable } from "../db/tables";
import { parseMessageContent, type MessageContent } from "../../shared/message-content";
import { formatMessage, type MessageReader } from "../../shared/message-format";
import { botTexts, LOCALE_OF } from "./texts.server";

export type ReaderSettings = Pick<
  SettingsTable,
  "language" | "time_zone" | "hour12" | "temperature_unit" | "wind_speed_unit" | "precipitation_unit"
>;

export function messageReader(settings: ReaderSettings): MessageReader {
  return {
    locale: LOCALE_OF[settings.language] ?? "en-US",
    timeZone: settings.time_zone,
    hour12: settings.hour12 === 1,
    temperatureUnit: settings.temperature_unit,
    windSpeedUnit: settings.wind_speed_unit,
    precipitationUnit: settings.precipitation_unit,
  };
}

/** A message's content formatted for a reader with these settings, in their language. */
export function formatContent(content: MessageContent, settings: ReaderSettings): { title: string; body: string } {
  const t = botTexts(settings.language);
  return formatMessage(content, messageReader(settings), (key, values) => t(key as never, values));
}

// Title and body are asked for separately: the row is formatted once per reader.
type StoredText = Pick<MessageTable, "title" | "body" | "content">;
const formatted = new WeakMap<StoredText, { key: string; text: { title: string; body: string } }>();

/**
 * What a stored message says to its reader now: formatted from its content for their current
 * settings, or its stored text when it has no content it can format (older messages).
 */
export function messageText(row: StoredText, settings: ReaderSettings | undefined): { title: string; body: string } {
  const content = settings ? parseMessageContent(row.content) : null;
  if (!content || !settings) return { title: row.title, body: row.body };
  const key = [
    settings.language,
    settings.time_zone,
    settings.hour12,
    settings.temperature_unit,
    settings.wind_speed_unit,
    settings.precipitation_unit,
  ].join("|");
  const known = formatted.get(row);
  if (known?.key === key) return known.text;
  const text = formatContent(content, settings);
  formatted.set(row, { key, text });
  return text;
}
