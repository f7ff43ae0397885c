// GraphQL Code Generator plugin: typed-document-node for part of the documents it is given, so one set of
// operations can ship as several modules (what every page's first paint needs, what only a signed-in page sends,
// and the rest, loaded later). `splitFiles`: .graphql files; `keep`: "inside" (their definitions) or "outside"
// (every other one). The other part's fragments are external: with `importFrom` (the module that has them and every
// operation's types), the fragments used here are imported from it, and the types are read from it.
const { readFileSync } = require("node:fs");
const { Kind, parse } = require("graphql");
const typedDocumentNode = require("@graphql-codegen/typed-document-node");

module.exports = {
  plugin(schema, documents, config, info) {
    const { splitFiles, keep, importFrom, ...rest } = config;
    const inside = new Set(
      splitFiles.flatMap((file) => parse(readFileSync(file, "utf8")).definitions.map((definition) => definition.name.value)),
    );
    const own = [];
    const other = [];
    for (const { document } of documents)
      for (const definition of document.definitions)
        ((keep === "inside") === inside.has(definition.name.value) ? own : other).push(definition);
    const externalFragments = other
      .filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((node) => ({ node, name: node.name.value, onType: node.typeCondition.name.value, isExternal: true }));
    const output = typedDocumentNode.plugin(
      schema,
      [{ document: { kind: Kind.DOCUMENT, definitions: own } }],
      { ...rest, externalFragments, ...(importFrom ? { importOperationTypesFrom: "Types" } : {}) },
      info,
    );
    if (!importFrom) return output;
    // Each document interpolates every fragment it needs, its fragments' own included.
    const imported = externalFragments.map(({ name }) => `${name}FragmentDoc`).filter((doc) => output.content.includes(`\${${doc}}`));
    output.prepend = [
      ...output.prepend,
      `import type * as Types from "${importFrom}";`,
      ...(imported.length ? [`import { ${imported.join(", ")} } from "${importFrom}";`] : []),
    ];
    return output;
  },
};
