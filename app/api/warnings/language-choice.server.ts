import { pickWarningText } from "../../shared/message-content";

/**
 * The CAP `info` block a reader gets: their language when the service wrote one (the same tag,
 * else the same language: "de" for "de-AT"), else English, else the first block. The browser
 * chooses among a WARNING message's texts by the same rule (message-content.ts).
 */
export function chooseByLanguage<T extends { language: string }>(blocks: readonly T[], language: string): T | undefined {
  return pickWarningText(blocks, language);
}
