import type { CapMessage } from "./cap-message.server";
import { fetchBody, type FetchBodyOptions } from "./fetch-body.server";
import { parseNwsAlerts } from "./nws-alerts.server";
import { decodeJsonText } from "./text-decoding.server";

export type NwsClientOptions = Omit<FetchBodyOptions, "accept" | "service"> & {
  /** NWS_ALERTS_URL. */
  baseUrl: string;
};

/** The NWS alerts API: the active alerts for a point ("lat,lon", as coverage.server.ts's gridPoint writes it). */
export function createNwsClient(options: NwsClientOptions) {
  const fetchOptions: FetchBodyOptions = { ...options, accept: "application/geo+json", service: "the NWS" };
  return {
    async activeAt(point: string): Promise<{ messages: CapMessage[]; skipped: number }> {
      const url = new URL(`${options.baseUrl}/alerts/active`);
      url.searchParams.set("point", point);
      const { bytes } = await fetchBody(url, fetchOptions);
      return parseNwsAlerts(decodeJsonText(bytes, "the NWS"));
    },
  };
}

export type NwsClient = ReturnType<typeof createNwsClient>;
