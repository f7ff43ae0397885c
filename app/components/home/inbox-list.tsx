import { useTranslation } from "react-i18next";
import type { MessageFields } from "~/lib/graphql/documents";

/** The bot's messages, newest first; new ones arrive live through the cache. */
export function InboxList({
  messages,
  unreadCount,
  timeZone,
  hour12,
}: {
  messages: MessageFields[];
  unreadCount: number;
  timeZone: string;
  hour12: boolean;
}) {
  const { t, i18n } = useTranslation();
  // The user's zone, not the machine's: the server and the browser render the same text.
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short", timeZone, hour12 });
  return (
    <section aria-labelledby="inbox-heading" className="card">
      <div className="mb-4 flex items-baseline justify-between gap-4">
        <h2 id="inbox-heading" className="text-lg font-semibold">
          {t("inbox.title")}
        </h2>
        <p className="text-sm text-muted" data-testid="inbox-unread">
          {t("inbox.unreadCount", { count: unreadCount })}
        </p>
      </div>
      {messages.length === 0 ? (
        <p className="text-muted">{t("inbox.empty")}</p>
      ) : (
        <ol className="flex flex-col divide-y divide-default" data-testid="inbox" aria-live="polite">
          {messages.map((message) => (
            <li key={message.id} className="py-3" data-message-id={message.id} data-unread={message.readAt ? undefined : "true"}>
              <div className="flex items-baseline justify-between gap-4">
                <h3 className={message.readAt ? "font-medium" : "font-semibold"}>
                  {message.readAt ? null : <span className="sr-only">{t("inbox.unread")}: </span>}
                  {message.title}
                </h3>
                <time dateTime={message.createdAt} className="shrink-0 text-sm text-muted">
                  {time.format(new Date(message.createdAt))}
                </time>
              </div>
              <p className="mt-1 whitespace-pre-line text-sm">{message.body}</p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
