import type { APIRequestContext, BrowserContext, Page } from "@playwright/test";

export type RecordedOperation = { operationName?: string; variables?: Record<string, unknown> };

/** The page's GraphQL operations over HTTP from now on, in order (a live list; a WebSocket is not one of them). */
export function recordGraphQLOperations(page: Page): RecordedOperation[] {
  const operations: RecordedOperation[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/graphql") operations.push((request.postDataJSON() ?? {}) as RecordedOperation);
  });
  return operations;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped GraphQL result (string queries): callers name the shape they expect
export type Gql = <Data = any>(query: string, variables?: Record<string, unknown>) => Promise<Data>;

/** Calls the API at `baseURL` with a bearer token, as another client of the same account would. */
export function apiAs(request: APIRequestContext, baseURL: string, token: string | null): Gql {
  return async (query, variables = {}) => {
    const response = await request.post(`${baseURL}/graphql`, {
      data: { query, variables },
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    const body = (await response.json()) as { data?: unknown; errors?: Array<{ message: string }> };
    if (body.errors?.length) throw new Error(`GraphQL errors: ${body.errors.map((error) => error.message).join(", ")}`);
    return body.data as never;
  };
}

let counter = 0;
export const uniqueEmail = (tag = "user") => `e2e-${tag}-${Date.now()}-${++counter}@example.com`;
const PASSWORD = "a sturdy passphrase";

/** A new account with one place and a briefing for it; returns its token and helpers. */
export async function accountWithPlace(request: APIRequestContext, baseURL: string, label: string) {
  const email = uniqueEmail();
  const signUp = await apiAs(
    request,
    baseURL,
    null,
  )<{ signUp: { token: string } }>(
    `mutation ($email: String!, $password: String!) { signUp(email: $email, password: $password, timeZone: "Europe/Berlin") { token } }`,
    { email, password: PASSWORD },
  );
  const token = signUp.signUp.token;
  const gql = apiAs(request, baseURL, token);
  const { addPlace } = await gql<{ addPlace: { id: string } }>(
    `mutation ($label: String) { addPlace(latitude: 52.52, longitude: 13.41, label: $label) { id } }`,
    { label },
  );
  const { saveBriefing } = await gql<{ saveBriefing: { id: string } }>(
    `mutation ($input: BriefingInput!) { saveBriefing(input: $input) { id } }`,
    { input: { name: `${label} morning`, placeIds: [addPlace.id], period: "TODAY", time: "07:00", days: ["MON"] } },
  );
  /** Has the bot write a briefing message now; returns its title. */
  const sendBriefing = async (api: Gql = gql) =>
    (
      await api<{ sendBriefingNow: { id: string; title: string } }>(`mutation ($id: ID!) { sendBriefingNow(id: $id) { id title } }`, {
        id: saveBriefing.id,
      })
    ).sendBriefingNow;
  return { email, password: PASSWORD, token, gql, placeId: addPlace.id, sendBriefing };
}

/** Logs in through the API (a second device of the same account): a client with a new token. */
export async function logInApi(request: APIRequestContext, baseURL: string, email: string, password: string): Promise<Gql> {
  const { logIn } = await apiAs(
    request,
    baseURL,
    null,
  )<{ logIn: { token: string } }>(
    `mutation ($email: String!, $password: String!) { logIn(email: $email, password: $password) { token } }`,
    { email, password },
  );
  return apiAs(request, baseURL, logIn.token);
}

/** Signs the browser in as the API does at log-in: the HttpOnly session cookie. */
export async function signInBrowser(context: BrowserContext, baseURL: string, token: string) {
  await context.addCookies([{ name: "weatherbot_session", value: token, url: baseURL, httpOnly: true, sameSite: "Lax" }]);
}
