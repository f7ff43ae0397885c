import { useId, useState, type KeyboardEvent } from "react";
import { usePageTranslation } from "~/lib/i18n/use-page-translation";
import { useQuery } from "urql";
import { SEARCH_LOCATIONS_QUERY } from "~/lib/graphql/documents";
import type { SearchLocationsQuery } from "~/lib/graphql/documents.generated";
import { SILENT_OPERATION } from "~/lib/graphql/install-browser";
import { useConnectivity } from "~/lib/pwa/connectivity";
import { useDebouncedValue } from "~/lib/use-debounced-value";

export type LocationResult = SearchLocationsQuery["searchLocations"][number];

/** Typing pauses this long before a search is sent (docs/product-constants.md). */
export const SEARCH_DEBOUNCE_MS = 200;
const MIN_QUERY_LENGTH = 2;

export function describeLocation(location: Pick<LocationResult, "admin1" | "country">): string {
  return [location.admin1, location.country].filter(Boolean).join(", ");
}

/**
 * A place search as an ARIA combobox: results appear under the field as you type, the
 * arrow keys move through them, Enter chooses, Escape closes.
 */
export function LocationSearch({
  onSelect,
  autoFocus,
  placeholder,
}: {
  onSelect: (location: LocationResult) => void;
  autoFocus?: boolean;
  /** What the empty field shows; "City or town" unless given (a visitor's first search shows an example). */
  placeholder?: string;
}) {
  const { t } = usePageTranslation();
  const id = useId();
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  // The name of the place chosen last: focusing a field that still shows it opens nothing.
  const [chosen, setChosen] = useState<string | null>(null);
  const query = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const online = useConnectivity();
  const [result] = useQuery({
    query: SEARCH_LOCATIONS_QUERY,
    variables: { query },
    // Closed (a place was just chosen, its name now fills the field): nothing to look up.
    pause: !open || query.length < MIN_QUERY_LENGTH || !online,
    // A failed search is said in the list itself, not also as a toast over the dialog.
    context: SILENT_OPERATION,
  });
  const results = query.length >= MIN_QUERY_LENGTH && online && !result.error ? (result.data?.searchLocations ?? []) : [];
  const expanded = open && query.length >= MIN_QUERY_LENGTH;
  const listId = `${id}-results`;

  /** What the list says when it shows no place: never "no place by that name" when nobody could look. */
  function searchStatus(): string {
    if (!online) return t("search.offline");
    if (result.error) return t("search.unavailable");
    return result.fetching || query !== text.trim() ? t("search.searching") : t("search.noResults");
  }

  function choose(location: LocationResult) {
    setText(location.name);
    setChosen(location.name);
    setOpen(false);
    setActive(-1);
    onSelect(location);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      setOpen(true);
      if (results.length === 0) return;
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((current) => (current + step + results.length) % results.length);
    } else if (event.key === "Enter" && expanded && results[active]) {
      event.preventDefault();
      choose(results[active]!);
    } else if (event.key === "Escape") {
      const dialog = event.currentTarget.closest("dialog");
      // In a dialog one Escape closes it, as in every other (issue 35): the list and what was typed go with it.
      // The search field would otherwise take two of them (closing the list, then clearing its text).
      if (dialog?.open) {
        event.preventDefault();
        dialog.close();
      } else if (expanded) {
        event.preventDefault();
        setOpen(false);
        setActive(-1);
      }
    }
  }

  return (
    <div className="relative">
      <label htmlFor={id} className="mb-1 block font-medium">
        {t("search.label")}
      </label>
      <input
        id={id}
        type="search"
        role="combobox"
        autoComplete="off"
        autoFocus={autoFocus}
        data-autofocus={autoFocus ? "" : undefined}
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
        placeholder={placeholder ?? t("search.placeholder")}
        className="input w-full"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
        // Back in the field (after "Choose a place first", say): the results of what it holds come back.
        onFocus={() => {
          if (text.trim() !== chosen) setOpen(true);
        }}
        onBlur={() => setOpen(false)}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label={t("search.results")}
        hidden={!expanded}
        className="absolute inset-x-0 top-full z-30 mt-1 max-h-80 overflow-auto rounded-md border border-default bg-elevated py-1 shadow-lg"
      >
        {expanded && results.length === 0 ? (
          <li role="presentation" className="px-3 py-2 text-sm text-muted">
            {searchStatus()}
          </li>
        ) : null}
        {results.map((location, index) => (
          <li
            key={location.id}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            className={`cursor-pointer px-3 py-2 ${index === active ? "bg-accented" : ""}`}
            // Chosen on mousedown, before the field's blur closes the list.
            onMouseDown={(event) => {
              event.preventDefault();
              choose(location);
            }}
          >
            <span className="font-medium">{location.name}</span>
            <span className="ml-2 text-sm text-muted">{describeLocation(location)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
