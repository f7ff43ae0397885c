import { describe, expect, it } from "vitest";
import { parsePrometheusText, sampleSum } from "../support/prometheus-text";

describe("the tests' Prometheus text parser", () => {
  it("reads types, help, samples with escaped labels and special values", () => {
    const parsed = parsePrometheusText(
      [
        "# HELP a_total Things counted",
        "# TYPE a_total counter",
        'a_total{kind="x",path="say \\"hi\\""} 3',
        'a_total{kind="y"} 4',
        "# TYPE b histogram",
        'b_bucket{le="+Inf"} 2',
        "b_sum 0.5",
        "",
      ].join("\n"),
    );
    expect(parsed.types.get("a_total")).toBe("counter");
    expect(parsed.help.get("a_total")).toBe("Things counted");
    expect(parsed.samples[0]).toEqual({ name: "a_total", labels: { kind: "x", path: 'say "hi"' }, value: 3 });
    expect(sampleSum(parsed, "a_total")).toBe(7);
    expect(sampleSum(parsed, "a_total", { kind: "y" })).toBe(4);
    expect(sampleSum(parsed, "b_bucket", { le: "+Inf" })).toBe(2);
  });

  it("fails on a line that is not a sample", () => {
    expect(() => parsePrometheusText("a_total{kind=x} 3")).toThrow(/bad labels/);
    expect(() => parsePrometheusText("what is this")).toThrow(/not a sample/);
  });
});
