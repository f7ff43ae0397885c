import { useLoaderData } from "react-router";
import type { CardFixture, CellFixture } from "../../../page-fixture";
import { pagesFixture } from "../fixture.server";
import { PageHeader } from "../page-header";

export async function loader() {
  return (await pagesFixture()).signedIn;
}

export function meta({ data }: { data?: Awaited<ReturnType<typeof loader>> }) {
  return [{ title: data?.title }];
}

function Icon({ href, size }: { href: string | null; size: number }) {
  if (!href) return null;
  return (
    <svg width={size} height={size} aria-hidden="true">
      <use href={href} />
    </svg>
  );
}

function Cell({ cell }: { cell: CellFixture }) {
  return (
    <li className="cell">
      <Icon href={cell.icon} size={20} />
      {cell.texts.map((text, i) => (
        <span key={i}>{text}</span>
      ))}
      {cell.range ? (
        <span className="range" aria-hidden="true">
          <span style={cell.range} />
        </span>
      ) : null}
    </li>
  );
}

/** A whole card's hours (with their chart) and days. */
function Forecast({ card }: { card: CardFixture }) {
  return (
    <>
      <section>
        <h4>{card.hoursHeading}</h4>
        {card.chart ? (
          <svg viewBox={card.chart.viewBox} preserveAspectRatio="none" role="img">
            <path d={card.chart.bars} />
            <polyline points={card.chart.line} fill="none" stroke="currentColor" />
          </svg>
        ) : null}
        <ol>
          {card.hours.map((cell, i) => (
            <Cell key={i} cell={cell} />
          ))}
        </ol>
      </section>
      <section>
        <h4>{card.daysHeading}</h4>
        <ol>
          {card.days.map((cell, i) => (
            <Cell key={i} cell={cell} />
          ))}
        </ol>
      </section>
    </>
  );
}

/** One place: the same texts, icons, chart and bars as the real card, in plain markup (a compact card: its button instead of hours and days). */
function Card({ card }: { card: CardFixture }) {
  return (
    <article className="card" aria-label={card.title} data-testid="forecast-card">
      <header>
        <h3>{card.title}</h3>
        <p>{card.subtitle}</p>
        {card.toggle ? (
          <button type="button" aria-expanded="false">
            {card.toggle}
          </button>
        ) : null}
      </header>
      <div>
        <Icon href={card.icon} size={56} />
        {card.current.map((text, i) => (
          <span key={i}>{text}</span>
        ))}
      </div>
      {card.toggle ? null : <Forecast card={card} />}
      <footer>
        {card.footer.map((text, i) => (
          <span key={i}>{text}</span>
        ))}
      </footer>
    </article>
  );
}

/** The signed-in `/`: the heading and the ten cards. */
export default function Places() {
  const { header, heading, intro, placesHeading, cards } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader links={header} />
      <main>
        <h1>{heading}</h1>
        <p>{intro}</p>
        <section>
          <h2>{placesHeading}</h2>
          <ul>
            {cards.map((card, i) => (
              <li key={i}>
                <Card card={card} />
              </li>
            ))}
          </ul>
        </section>
      </main>
    </>
  );
}
