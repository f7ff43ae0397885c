import { useLoaderData } from "react-router";
import { pagesFixture } from "../fixture.server";
import { PageHeader } from "../page-header";

export async function loader() {
  return (await pagesFixture()).visitor;
}

export function meta({ data }: { data?: Awaited<ReturnType<typeof loader>> }) {
  return [{ title: data?.title }];
}

/** The visitor `/`: the same headings, paragraphs and search field. */
export default function Visitor() {
  const { header, blocks } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader links={header} />
      <main>
        {blocks.map(({ tag, text }, i) => {
          switch (tag) {
            case "input":
              return <input key={i} type="search" placeholder={text} />;
            case "label":
              return <label key={i}>{text}</label>;
            case "button":
              return (
                <button key={i} type="button">
                  {text}
                </button>
              );
            default: {
              const Tag = tag;
              return <Tag key={i}>{text}</Tag>;
            }
          }
        })}
      </main>
    </>
  );
}
