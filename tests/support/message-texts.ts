import { i18nextBotTexts } from "~/api/bot/texts.server";
import type { MessageTexts } from "~/shared/message-format";

/** The bot's texts in `locale` as the browser's i18next instance gives them to formatMessage. */
export const texts =
  (locale: string): MessageTexts =>
  (key, values) =>
    i18nextBotTexts(locale)(key as never, values);

/** The text with Intl's narrow and no-break spaces as plain ones, to compare with written expectations. */
export const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");
