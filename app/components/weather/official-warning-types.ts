import type { TFunction } from "i18next";
import type { PlaceWarningsQuery } from "~/lib/graphql/documents.generated";

/** A place's official warnings as its card reads them (the PlaceWarnings query, later-documents.graphql). */
export type PlaceWarningsReport = NonNullable<PlaceWarningsQuery["me"]>["places"][number]["warnings"];
export type WarningItem = PlaceWarningsReport["items"][number];
/** `t` of the "warnings" namespace (locales/<locale>/warnings.json). */
export type WarningTexts = TFunction<"warnings">;
