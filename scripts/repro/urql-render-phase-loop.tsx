/**
 * Standalone reproduction (not a test) of the freeze in decision 018: urql's `useQuery` takes new variables with a
 * render-phase `setState`; React leaves such an update out of the hook's base state while the same hook holds an
 * update of lower priority (react#36981), so every later render sees the old request again, runs the query again, and
 * the answer schedules the next render. Run: `npx tsx scripts/repro/urql-render-phase-loop.tsx`.
 *
 * Each query is answered at once with a new object, as graphcache answers from its cache. The hook's own answer is
 * delivered inside `startTransition` (a transition-priority update, as an idle one is in the app), then the
 * variables change in a synchronous render. urql 5.0.4, React 19.3. `--control`: without that update; `--keyed`: the
 * workaround, one `Item` mounted per id (`key`), so no mounted hook ever changes its variables.
 */
import { Window } from "happy-dom";

const window = new Window();
Object.assign(globalThis, { window, document: window.document, navigator: window.navigator, HTMLElement: window.HTMLElement });

const React = await import("react");
const { flushSync } = await import("react-dom");
const { createRoot } = await import("react-dom/client");
const { Client, Provider, gql, useQuery, makeResult } = await import("urql");
const { filter, makeSubject, map, merge, pipe, share } = await import("wonka");
type Operation = import("urql").Operation;
type OperationResult = import("urql").OperationResult;

const ITEM = gql`
  query Item($id: ID!) {
    item(id: $id) {
      id
    }
  }
`;

let executions = 0;
let renders = 0;
const pushed = makeSubject<OperationResult>();
// Answers every query at once, with a new object each time.
const client = new Client({
  url: "http://localhost/graphql",
  exchanges: [
    () => (operations$) => {
      const shared = pipe(operations$, share);
      const answers = pipe(
        shared,
        filter((operation: Operation) => operation.kind === "query"),
        map((operation: Operation) => {
          executions++;
          return makeResult(operation, { data: { item: { __typename: "Item", id: (operation.variables as { id: string }).id } } });
        }),
      );
      return merge([answers, pushed.source]);
    },
  ],
});

const keyed = process.argv.includes("--keyed");
let setId: (id: string) => void = () => undefined;
let lastOperation: Operation | undefined;
function Item({ id }: { id: string }) {
  renders++;
  const [result] = useQuery({ query: ITEM, variables: { id } });
  lastOperation = result.operation ?? lastOperation;
  return React.createElement("p", null, result.data?.item.id ?? "…");
}
function App() {
  const [id, set] = React.useState("a");
  setId = set;
  return React.createElement(Item, keyed ? { id, key: id } : { id });
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 50));
const root = createRoot(document.createElement("div") as unknown as Element);
root.render(React.createElement(Provider, { value: client }, React.createElement(App)));
await tick();

const withLowerPriorityUpdate = !process.argv.includes("--control");
if (withLowerPriorityUpdate) {
  // The hook's own answer arrives inside a transition: an update of lower priority than the click below.
  React.startTransition(() => pushed.next(makeResult(lastOperation!, { data: { item: { __typename: "Item", id: "a" } } })));
}
flushSync(() => setId("b"));
const [rendersBefore, executionsBefore] = [renders, executions];
await new Promise((resolve) => setTimeout(resolve, 1000));
console.log(
  `${withLowerPriorityUpdate ? "with a pending transition update" : "control (no pending update)"}${keyed ? ", keyed" : ""}: ` +
    `${renders - rendersBefore} renders and ${executions - executionsBefore} query executions in the second after the variables changed`,
);
root.unmount();
process.exit(0);
