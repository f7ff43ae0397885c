/**
 * The CAP `info` block a reader gets: their language when the service wrote one (the same tag,
 * else the same language: "de" for "de-AT"), else English, else the first block.
 */
export function chooseByLanguage<T extends { language: string }>(blocks: readonly T[], language: string): T | undefined {
  const wanted = language.toLowerCase();
  const primary = (tag: string) => tag.toLowerCase().split(/[-_]/)[0];
  return (
    blocks.find((block) => block.language.toLowerCase() === wanted) ??
    blocks.find((block) => primary(block.language) === primary(wanted)) ??
    blocks.find((block) => primary(block.language) === "en") ??
    blocks[0]
  );
}
