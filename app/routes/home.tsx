import { useTranslation } from "react-i18next";
import type { Route } from "./+types/home";
import { getI18n } from "~/lib/i18n/middleware.server";

export async function loader({ context }: Route.LoaderArgs) {
  const { t } = getI18n(context);
  return { title: `${t("home.title")} · ${t("app.name")}` };
}

export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.title }] : []);

export default function Home() {
  const { t } = useTranslation();
  return (
    <section className="max-w-2xl">
      <h1 className="text-3xl font-bold tracking-tight">{t("home.title")}</h1>
      <p className="mt-3 text-lg text-muted">{t("home.intro")}</p>
    </section>
  );
}
