/** The middle value (the upper middle of an even count): benchmarks report it over repeated runs. */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
