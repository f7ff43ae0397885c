/**
 * A form's `redirectTo` is user input: only same-origin paths are followed, so a
 * crafted link cannot bounce the user to another site ("//evil.example", "/\\evil").
 */
export function safeRedirectPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || !value.startsWith("/")) return fallback;
  if (value.startsWith("//") || value.startsWith("/\\")) return fallback;
  try {
    const url = new URL(value, "http://weatherbot.invalid");
    if (url.origin !== "http://weatherbot.invalid") return fallback;
    // The parser tidies "/.//evil.example" into "//evil.example": check the result too.
    const path = url.pathname + url.search + url.hash;
    return path.startsWith("//") ? fallback : path;
  } catch {
    return fallback;
  }
}
