import { useLoaderData } from "react-router";
import { createElement } from "react";
import type { CardFixture, CellFixture, ChartFixture, RowFixture } from "../../../page-fixture";
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

/** A chart's shapes and labels as the real one has them. */
function Chart({ chart }: { chart: ChartFixture }) {
  return (
    <svg viewBox={chart.viewBox} role="img">
      {chart.shapes.map(({ tag, attributes, text }, i) => {
        const { class: className, ...rest } = attributes;
        return createElement(tag, { key: i, ...rest, className }, tag === "text" ? text : undefined);
      })}
    </svg>
  );
}

/** The open card's hours (their texts, views and charts) and days. */
function Forecast({ card }: { card: CardFixture }) {
  return (
    <>
      <section>
        {card.hoursTexts.map((text, i) => (
          <span key={i}>{text}</span>
        ))}
        {card.charts.map((chart, i) => (
          <Chart key={i} chart={chart} />
        ))}
        <div>
          {card.wind.map((cell, i) => (
            <div key={i} data-testid="wind-hour">
              {cell.texts.map((text, j) => (
                <span key={j}>{text}</span>
              ))}
            </div>
          ))}
        </div>
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

/** The open place: the same texts, icons, charts and bars as the real card, in plain markup. */
function Card({ card }: { card: CardFixture }) {
  return (
    <article className="card" aria-label={card.title} data-testid="forecast-card">
      <header>
        <h3>{card.title}</h3>
        <p>{card.subtitle}</p>
      </header>
      <div>
        <Icon href={card.icon} size={64} />
        {card.current.map((text, i) => (
          <span key={i}>{text}</span>
        ))}
      </div>
      <Forecast card={card} />
      <footer>
        {card.footer.map((text, i) => (
          <span key={i}>{text}</span>
        ))}
      </footer>
    </article>
  );
}

/** A switcher row: a link with the place's texts and icon. */
function Row({ row }: { row: RowFixture }) {
  return (
    <li>
      <a href={row.href}>
        <Icon href={row.icon} size={28} />
        {row.texts.map((text, i) => (
          <span key={i}>{text}</span>
        ))}
      </a>
    </li>
  );
}

/** The signed-in `/`: the heading, the open place and the ten rows. */
export default function Places() {
  const { header, heading, intro, placesHeading, card, rows } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader links={header} />
      <main>
        <h1>{heading}</h1>
        <p>{intro}</p>
        <section>
          <h2>{placesHeading}</h2>
          <Card card={card} />
        </section>
        <nav>
          <ol data-testid="places">
            {rows.map((row, i) => (
              <Row key={i} row={row} />
            ))}
          </ol>
        </nav>
      </main>
    </>
  );
}
