import type { APIRequestContext, BrowserContext, Page } from "@playwright/test";
import type { TypedDocumentNode } from "@urql/core";
import { print } from "graphql";
import {
  E2eAddPlaceDocument,
  E2eLogInDocument,
  E2eSaveBriefingDocument,
  E2eSendBriefingNowDocument,
  E2eSignUpDocument,
} from "./documents.generated";

export type RecordedOperation = { operationName?: string; variables?: Record<string, unknown> };

/** The page's GraphQL operations over HTTP from now on, in order (a live list; a WebSocket is not one of them). */
export function recordGraphQLOperations(page: Page): RecordedOperation[] {
  const operations: RecordedOperation[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/graphql") operations.push((request.postDataJSON() ?? {}) as RecordedOperation);
  });
  return operations;
}

/** A typed document (graphql.graphql's) answers with its result type; a string with the `Data` its caller names. */
export type Gql = {
  <R, V extends Record<string, unknown>>(document: TypedDocumentNode<R, V>, variables?: V): Promise<R>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped GraphQL result (string queries): callers name the shape they expect
  <Data = any>(query: string, variables?: Record<string, unknown>): Promise<Data>;
};

/**
 * The JSON body of a typed document's request (a spec's own `.graphql`), variables checked against it, for specs that
 * send it themselves to read the answer's status and headers, or with cookies, origins, sockets or agents of their own.
 */
export function operationBody<R, V extends Record<string, unknown>>(document: TypedDocumentNode<R, V>, variables?: V) {
  return variables === undefined ? { query: print(document) } : { query: print(document), variables };
}

/** Calls the API at `baseURL` with a bearer token, as another client of the same account would. */
export function apiAs(request: APIRequestContext, baseURL: string, token: string | null): Gql {
  return (async (document: string | TypedDocumentNode<unknown, object>, variables: object = {}) => {
    const query = typeof document === "string" ? document : print(document);
    const response = await request.post(`${baseURL}/graphql`, {
      data: { query, variables },
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    const body = (await response.json()) as { data?: unknown; errors?: Array<{ message: string }> };
    if (body.errors?.length) throw new Error(`GraphQL errors: ${body.errors.map((error) => error.message).join(", ")}`);
    return body.data as never;
  }) as Gql;
}

let counter = 0;
// Workers are processes of their own, each counting from 0: the pid tells two of them apart in the same millisecond.
export const uniqueEmail = (tag = "user") => `e2e-${tag}-${Date.now()}-${process.pid}-${++counter}@example.com`;
const PASSWORD = "a sturdy passphrase";

/** A new account with one place and a briefing for it, the browser of `browser` signed in to it; returns its token and helpers. */
export async function accountWithPlace(request: APIRequestContext, baseURL: string, label: string, browser?: BrowserContext) {
  const email = uniqueEmail();
  const signUp = await apiAs(request, baseURL, null)(E2eSignUpDocument, { email, password: PASSWORD });
  const token = signUp.signUp.token;
  const gql = apiAs(request, baseURL, token);
  const { addPlace } = await gql(E2eAddPlaceDocument, { label });
  const { saveBriefing } = await gql(E2eSaveBriefingDocument, {
    input: { name: `${label} morning`, placeIds: [addPlace.id], period: "TODAY", time: "07:00", days: ["MON"] },
  });
  /** Has the bot write a briefing message now; returns its title. */
  const sendBriefing = async (api: Gql = gql) => (await api(E2eSendBriefingNowDocument, { id: saveBriefing.id })).sendBriefingNow;
  if (browser) await signInBrowser(browser, baseURL, token);
  return { email, password: PASSWORD, token, gql, placeId: addPlace.id, sendBriefing };
}

/** Logs in through the API (a second device of the same account): a client with a new token. */
export async function logInApi(request: APIRequestContext, baseURL: string, email: string, password: string): Promise<Gql> {
  const { logIn } = await apiAs(request, baseURL, null)(E2eLogInDocument, { email, password });
  return apiAs(request, baseURL, logIn.token);
}

/** Signs the browser in as the API does at log-in: the HttpOnly session cookie. */
export async function signInBrowser(context: BrowserContext, baseURL: string, token: string) {
  await context.addCookies([{ name: "weatherbot_session", value: token, url: baseURL, httpOnly: true, sameSite: "Lax" }]);
}
