import { useEffect, useState } from "react";
import type { TFunction } from "i18next";
import { useSearchParams } from "react-router";
import { useMutation, useQuery } from "urql";
import { CheckAllIcon, CheckIcon, TrashIcon } from "~/components/icons";
import { Tooltip } from "~/components/ui/tooltip";
import type { CardTranslation } from "~/components/weather/forecast-card";
import { useDisplaySettings } from "~/lib/display-settings";
import {
  DELETE_MESSAGE_MUTATION,
  INBOX_QUERY,
  inboxVariables,
  MARK_ALL_READ_MUTATION,
  MARK_READ_MUTATION,
  RESTORE_MESSAGE_MUTATION,
} from "~/lib/graphql/signed-in-documents";
import type { MessageFieldsFragment as MessageFields } from "~/lib/graphql/documents.generated";
import { focusAfterRemoval, focusWithinItem } from "~/lib/focus-after-removal";
import { showToast } from "~/lib/toast/toast-store";
import { showUndoToast } from "~/lib/toast/undo-toast";
import { useBotTexts } from "~/lib/i18n/bot-texts";
import { formatsContentVersion } from "~/shared/message-content";
import { rulesSummaryLines } from "~/shared/rules-summary";
import { formatMessage, type MessageReader, type MessageTexts } from "~/shared/message-format";
import { dateTimeFormat } from "~/shared/units";

/** How focus finds its way in the inbox when a message (or one of its buttons) goes away. */
const INBOX_ROWS = { row: "data-message-id", control: "delete", fallbackId: "inbox-heading" };

const KIND_STYLE: Record<MessageFields["kind"], string> = {
  BRIEFING: "bg-sky-100 text-sky-900 dark:bg-sky-900 dark:text-sky-100",
  ALERT: "bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100",
  ALL_CLEAR: "bg-green-100 text-green-900 dark:bg-green-900 dark:text-green-100",
  WARNING: "bg-red-100 text-red-900 dark:bg-red-900 dark:text-red-100",
  SYSTEM: "bg-accented text-default",
};

type Formatting = { texts: MessageTexts | null; reader: MessageReader };

/** The message formatted for the reader as they are now, or as the server formatted it (no content, or the bot's texts not here yet). */
function textOf(message: MessageFields, { texts, reader }: Formatting) {
  return texts && message.content && formatsContentVersion(message.content.version)
    ? formatMessage(message.content, reader, texts)
    : { title: message.title, body: message.body };
}

function MessageItem({
  message,
  time,
  formatting,
  t,
}: {
  message: MessageFields;
  time: Intl.DateTimeFormat;
  formatting: Formatting;
  t: TFunction;
}) {
  const { title, body } = textOf(message, formatting);
  const lines = rulesSummaryLines(message.kind, body);
  const [, markRead] = useMutation(MARK_READ_MUTATION);
  const [, deleteMessage] = useMutation(DELETE_MESSAGE_MUTATION);
  const [, restoreMessage] = useMutation(RESTORE_MESSAGE_MUTATION);
  const unread = !message.readAt;
  return (
    <li className="flex gap-3 py-3" data-message-id={message.id} data-unread={unread ? "true" : undefined}>
      <span aria-hidden="true" className={`mt-2 size-2 shrink-0 rounded-full ${unread ? "bg-primary" : "bg-transparent"}`} />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-baseline gap-x-2">
          <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${KIND_STYLE[message.kind]}`}>{t(`inbox.kind.${message.kind}`)}</span>
          <h3 className={unread ? "font-semibold" : "font-medium"}>
            {unread ? <span className="sr-only">{t("inbox.unread")}: </span> : null}
            {title}
          </h3>
        </div>
        <time dateTime={message.createdAt} className="text-xs text-muted">
          {time.format(new Date(message.createdAt))}
        </time>
        {lines ? (
          // Markers and a gap tell where one wrapped line ends; a list is announced as one, with its length.
          <ul className="mt-1 list-disc space-y-1 ps-5 text-sm marker:text-muted">
            {lines.map((line, index) => (
              <li key={index}>{line}</li>
            ))}
          </ul>
        ) : (
          <p className="mt-1 whitespace-pre-line text-sm">{body}</p>
        )}
      </div>
      <div className="flex shrink-0 items-start">
        {unread ? (
          <Tooltip content={t("inbox.markRead")}>
            <button
              type="button"
              className="icon-button"
              aria-label={t("inbox.markRead")}
              onClick={async (event) => {
                // The button goes away once the message is read: focus stays on the message.
                const refocus = focusWithinItem(event.currentTarget, INBOX_ROWS);
                const result = await markRead({ ids: [message.id] });
                if (!result.error) refocus();
              }}
            >
              <CheckIcon />
            </button>
          </Tooltip>
        ) : null}
        <Tooltip content={t("inbox.delete")}>
          <button
            type="button"
            className="icon-button"
            aria-label={t("inbox.delete")}
            data-control="delete"
            onClick={async (event) => {
              const refocus = focusAfterRemoval(event.currentTarget, INBOX_ROWS);
              const result = await deleteMessage({ id: message.id });
              if (result.error) return;
              refocus();
              showUndoToast({
                title: t("inbox.deleted"),
                undoLabel: t("managePlaces.undo"),
                restore: () => restoreMessage({ id: message.id }),
                restoredTitle: t("inbox.restored"),
              });
            }}
          >
            <TrashIcon />
          </button>
        </Tooltip>
      </div>
    </li>
  );
}

/** One page of the inbox; the last page offers the next. */
function InboxPage({
  after,
  time,
  formatting,
  isLast,
  onLoadMore,
  t,
}: {
  after?: string;
  time: Intl.DateTimeFormat;
  formatting: Formatting;
  isLast: boolean;
  onLoadMore: (cursor: string) => void;
  t: TFunction;
}) {
  const [page] = useQuery({ query: INBOX_QUERY, variables: inboxVariables(after) });
  const connection = page.data?.messages;
  if (!connection) {
    return page.fetching ? (
      <li className="py-3 text-sm text-muted" role="status">
        {t("inbox.loading")}
      </li>
    ) : null;
  }
  return (
    <>
      {connection.edges.map((message) => (
        <MessageItem key={message.id} message={message} time={time} formatting={formatting} t={t} />
      ))}
      {isLast && connection.hasMore && connection.endCursor ? (
        <li className="pt-3">
          <button type="button" className="button-secondary w-full" onClick={() => onLoadMore(connection.endCursor!)}>
            {t("inbox.loadOlder")}
          </button>
        </li>
      ) : null}
    </>
  );
}

/** `/?message=<id>` (where a push notification leads): brings that message into view and focus. */
function useMessageInView() {
  const [searchParams] = useSearchParams();
  const id = searchParams.get("message");
  useEffect(() => {
    if (!id) return;
    const item = document.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(id)}"]`);
    if (!item) return;
    item.tabIndex = -1;
    item.scrollIntoView({ block: "center" });
    item.focus({ preventScroll: true });
  }, [id]);
}

/**
 * The bot's messages, newest first; new ones arrive live through the cache. Its texts come from the dashboard's one
 * `useTranslation`, handed down to every page and message (a hook per message copied the i18next instance each time).
 */
export function InboxList({
  firstPage,
  unreadCount,
  translation: { t, i18n },
}: {
  firstPage: MessageFields[];
  unreadCount: number;
  translation: CardTranslation;
}) {
  useMessageInView();
  const settings = useDisplaySettings();
  const [cursors, setCursors] = useState<string[]>([]);
  const [, markAllRead] = useMutation(MARK_ALL_READ_MUTATION);
  // The user's zone, not the machine's: the server and the browser render the same text.
  const time = dateTimeFormat(settings.locale, settings.timeZone, settings.hour12);
  const formatting = {
    texts: useBotTexts(
      firstPage.some((message) => message.content),
      i18n.language,
    ),
    reader: settings,
  };
  const pages = [undefined, ...cursors];
  return (
    <section aria-labelledby="inbox-heading" className="card self-start">
      <div className="mb-2 flex items-center justify-between gap-4">
        <div>
          <h2 id="inbox-heading" className="text-xl font-semibold">
            {t("inbox.title")}
          </h2>
          <p className="text-sm text-muted" data-testid="inbox-unread">
            {t("inbox.unreadCount", { count: unreadCount })}
          </p>
        </div>
        {unreadCount > 0 ? (
          <Tooltip content={t("inbox.markAllRead")}>
            <button
              type="button"
              className="icon-button"
              aria-label={t("inbox.markAllRead")}
              onClick={async () => {
                // Up to the newest message shown: sent later (kept offline), it leaves what came meanwhile unread.
                const result = await markAllRead({ upTo: firstPage[0]?.createdAt });
                if (!result.error) showToast({ title: t("inbox.allRead"), variant: "success" });
              }}
            >
              <CheckAllIcon />
            </button>
          </Tooltip>
        ) : null}
      </div>
      {firstPage.length === 0 ? (
        <p className="text-muted">{t("inbox.empty")}</p>
      ) : (
        <ol className="flex flex-col divide-y divide-default" data-testid="inbox" aria-live="polite">
          {pages.map((after, i) => (
            <InboxPage
              key={after ?? "first"}
              after={after}
              time={time}
              formatting={formatting}
              isLast={i === pages.length - 1}
              onLoadMore={(cursor) => setCursors((current) => (current.includes(cursor) ? current : [...current, cursor]))}
              t={t}
            />
          ))}
        </ol>
      )}
    </section>
  );
}
