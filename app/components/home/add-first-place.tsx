import { usePageTranslation } from "~/lib/i18n/use-page-translation";
import { useNavigate } from "react-router";
import { useMutation } from "urql";
import { LocationSearch } from "~/components/places/location-search";
import { ADD_PLACE_MUTATION } from "~/lib/graphql/later-documents";
import { placeHref } from "~/lib/open-place";
import { showToast } from "~/lib/toast/toast-store";

/**
 * A new account's one search: choosing a place saves it and opens it (no dialog and no label to think about yet;
 * it can be renamed where the places are). A failure is the client's usual error toast.
 */
export function AddFirstPlace() {
  const { t } = usePageTranslation();
  const navigate = useNavigate();
  const [, addPlace] = useMutation(ADD_PLACE_MUTATION);
  async function add(locationId: string) {
    const added = (await addPlace({ locationId })).data?.addPlace;
    if (!added) return;
    showToast({ title: t("addPlace.added", { label: added.label }), variant: "success" });
    await navigate(placeHref(added.id), { preventScrollReset: true });
  }
  return <LocationSearch onSelect={(location) => void add(location.id)} />;
}
