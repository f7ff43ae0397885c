import type { Condition } from "~/shared/schema-enums.generated";

/*
 * One drawing per kind of weather, built from a few shapes (sun, moon, cloud, drops,
 * flakes, bolt) so the whole set stays small and works offline. Colours come from the
 * theme; the icon is decorative: the condition's name is always written next to it.
 */

const CLOUD = "M7 18h10a4 4 0 0 0 .6-7.95A6 6 0 0 0 6.1 9.5 4.25 4.25 0 0 0 7 18z";

function Sun({ small }: { small?: boolean }) {
  return small ? (
    <g className="text-amber-500">
      <circle cx="8" cy="8" r="3" />
      <path d="M8 2v1M2 8h1M3.8 3.8l.7.7M12.2 3.8l-.7.7" />
    </g>
  ) : (
    <g className="text-amber-500">
      <circle cx="12" cy="12" r="4" />
      <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
    </g>
  );
}

function Moon({ small }: { small?: boolean }) {
  return small ? (
    <path className="text-indigo-400" d="M10.5 7.6A3.6 3.6 0 1 1 6.6 3.5a2.8 2.8 0 0 0 3.9 4.1z" />
  ) : (
    <path className="text-indigo-400" d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
  );
}

const Cloud = () => <path className="text-slate-400" d={CLOUD} />;
const Drops = ({ heavy }: { heavy?: boolean }) => (
  <path className="text-sky-500" d={heavy ? "M8 20l-1 2M12 20l-1 2M16 20l-1 2" : "M9 20l-.5 1.5M15 20l-.5 1.5"} />
);
const Flakes = () => <path className="text-sky-300" d="M8 21h.01M12 21h.01M16 21h.01M10 23h.01M14 23h.01" strokeWidth="2.5" />;
const Bolt = () => <path className="text-amber-500" d="M13 17l-2 3h3l-2 3" />;
const Fog = () => <path className="text-slate-400" d="M4 10h16M6 14h12M4 18h16" />;

function shapes(condition: Condition, isDay: boolean) {
  const Sky = isDay ? Sun : Moon;
  switch (condition) {
    case "CLEAR":
      return <Sky />;
    case "MAINLY_CLEAR":
    case "PARTLY_CLOUDY":
      return (
        <>
          <Sky small />
          <Cloud />
        </>
      );
    case "OVERCAST":
      return <Cloud />;
    case "FOG":
      return <Fog />;
    case "DRIZZLE":
    case "FREEZING_DRIZZLE":
      return (
        <>
          <Cloud />
          <Drops />
        </>
      );
    case "RAIN":
    case "FREEZING_RAIN":
    case "RAIN_SHOWERS":
      return (
        <>
          <Cloud />
          <Drops heavy />
        </>
      );
    case "SNOW":
    case "SNOW_GRAINS":
    case "SNOW_SHOWERS":
      return (
        <>
          <Cloud />
          <Flakes />
        </>
      );
    case "THUNDERSTORM":
    case "THUNDERSTORM_WITH_HAIL":
      return (
        <>
          <Cloud />
          <Bolt />
        </>
      );
    default:
      return <Cloud />;
  }
}

export function ConditionIcon({ condition, isDay = true, size = 24 }: { condition: Condition; isDay?: boolean; size?: number }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.75"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className="shrink-0"
    >
      {shapes(condition, isDay)}
    </svg>
  );
}
