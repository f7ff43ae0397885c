import type { GraphQLResolveInfo, SelectionSetNode } from "graphql";

/**
 * Whether the operation asks for `field` directly under the field being resolved (through
 * fragments and inline fragments too): lets a resolver start work its children will need,
 * rather than only once they run.
 */
export function selectsField(info: Pick<GraphQLResolveInfo, "fieldNodes" | "fragments">, field: string): boolean {
  const seen = new Set<string>();
  const inSet = (set: SelectionSetNode | undefined): boolean =>
    !!set &&
    set.selections.some((selection) => {
      if (selection.kind === "Field") return selection.name.value === field;
      if (selection.kind === "InlineFragment") return inSet(selection.selectionSet);
      const name = selection.name.value;
      if (seen.has(name)) return false;
      seen.add(name);
      return inSet(info.fragments[name]?.selectionSet);
    });
  return info.fieldNodes.some((node) => inSet(node.selectionSet));
}
