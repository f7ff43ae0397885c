import type { TFunction } from "i18next";
import type { Condition } from "~/shared/schema-enums.generated";

/** The condition's name, looked up once per list however many hours or days share it. */
export function conditionNames(t: TFunction): (condition: Condition) => string {
  const names = new Map<Condition, string>();
  return (condition) => {
    let name = names.get(condition);
    if (name === undefined) names.set(condition, (name = t(`weather.condition.${condition}`)));
    return name;
  };
}
