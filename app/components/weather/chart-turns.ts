/**
 * The indices where a series turns (a local high or low), with its first and last point: where a line's
 * values are written, so a reader sees the day's peaks without counting gridlines. Flat stretches turn once,
 * at their first point; turns closer than `gap` points to an earlier label are left out so labels do not collide.
 */
export function turningPoints(values: readonly number[], gap = 2): number[] {
  if (values.length === 0) return [];
  const turns = [0];
  let direction = 0;
  for (let i = 1; i < values.length; i++) {
    const step = Math.sign(values[i]! - values[i - 1]!);
    if (step === 0) continue;
    if (direction !== 0 && step !== direction) turns.push(lastChangeBefore(values, i));
    direction = step;
  }
  turns.push(values.length - 1);
  const kept: number[] = [];
  for (const index of turns) if (kept.length === 0 || index - kept[kept.length - 1]! >= gap) kept.push(index);
  return kept;
}

/** The start of the flat run that ends just before `i` (the turn's first point). */
function lastChangeBefore(values: readonly number[], i: number): number {
  let turn = i - 1;
  while (turn > 0 && values[turn - 1] === values[turn]) turn--;
  return turn;
}
