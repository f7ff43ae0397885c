import type { TFunction } from "i18next";
import type { DisplaySettings } from "~/lib/display-settings";
import type { WeatherFieldsFragment } from "~/lib/graphql/documents.generated";
import { formatPrecipitation } from "~/shared/units";

type QuarterHour = WeatherFieldsFragment["nowcast"][number];

/** The next 2 hours' precipitation as quarter-hour bars, with its scale and times written on the axes. */
export default function NowcastChart({ steps, settings, t }: { steps: QuarterHour[]; settings: DisplaySettings; t: TFunction }) {
  // Dry throughout: the line says it all.
  if (!steps.some((step) => step.precipitation > 0)) return null;
  const top = Math.max(0.5, ...steps.map((step) => step.precipitation));
  const width = 8 * 20;
  return (
    <svg
      viewBox={`0 0 ${width + 48} 62`}
      className="h-16 w-56 text-default"
      role="img"
      aria-label={t("weather.nowcast.chart", { max: formatPrecipitation(top, settings) })}
      data-testid="nowcast-chart"
    >
      {steps.map((step, i) => {
        const height = (step.precipitation / top) * 40;
        return <rect key={step.time} x={i * 20 + 3} y={44 - height} width={14} height={height} className="fill-sky-500/70" />;
      })}
      <line x1={0} x2={width} y1={44} y2={44} stroke="currentColor" strokeOpacity="0.4" />
      <g className="fill-current" fontSize="10">
        <text x={width + 4} y={10}>
          {formatPrecipitation(top, settings)}
        </text>
        <text x={0} y={58}>
          {t("weather.nowcast.now")}
        </text>
        <text x={width / 2} y={58} textAnchor="middle">
          {t("weather.nowcast.later", { hours: 1 })}
        </text>
        <text x={width} y={58} textAnchor="end">
          {t("weather.nowcast.later", { hours: 2 })}
        </text>
      </g>
    </svg>
  );
}
