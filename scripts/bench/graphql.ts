/** One GraphQL request to the app under benchmark; errors throw. */
export async function graphql(url: string, query: string, variables: Record<string, unknown> = {}, token?: string) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped GraphQL result (string queries): callers name the shape they expect
  const body = (await response.json()) as { data?: any; errors?: unknown };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}
