import type { TFunction } from "i18next";
import { MonitorIcon, MoonIcon, SunIcon } from "~/components/icons";
import { Tooltip } from "~/components/ui/tooltip";
import { nextColorModePreference, type ColorModePreference } from "~/lib/theme/color-mode";
import { useColorMode } from "~/lib/theme/use-color-mode";

const icons: Record<ColorModePreference, typeof SunIcon> = {
  system: MonitorIcon,
  light: SunIcon,
  dark: MoonIcon,
};

/** The header's one-button colour-mode control: system → light → dark → system. Its texts come from the header's `t`. */
export function ColorModeToggle({ t }: { t: TFunction }) {
  const { preference, setPreference } = useColorMode();
  const next = nextColorModePreference(preference);
  const label = t("colorMode.cycle", { current: t(`colorMode.${preference}`), next: t(`colorMode.${next}`) });
  const Icon = icons[preference];
  return (
    <Tooltip content={label}>
      <button type="button" className="icon-button" aria-label={label} data-preference={preference} onClick={() => setPreference(next)}>
        <Icon />
      </button>
    </Tooltip>
  );
}
