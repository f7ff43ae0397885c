import { keepsSession } from "./forms/account-security-form";
import { getBrowserGraphQL } from "./graphql/browser-client";
import { ACCOUNT_SESSIONS_QUERY } from "./graphql/later-documents";

/**
 * After an account-security form that keeps this browser's session (a password change, a session ended): where the
 * account is signed in is read again into the cache the page shows. Returns false for every other intent.
 */
export async function refreshSessionsAfter(intent: unknown): Promise<boolean> {
  if (!keepsSession(intent)) return false;
  await getBrowserGraphQL().current().query(ACCOUNT_SESSIONS_QUERY, {}, { requestPolicy: "network-only" }).toPromise();
  return true;
}
