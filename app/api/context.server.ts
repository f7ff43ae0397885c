import type { FailureLimiter } from "./auth/rate-limit.server";
import type { AlertService } from "./bot/alerts.server";
import type { BriefingService } from "./bot/briefings.server";
import type { Inbox } from "./bot/inbox.server";
import type { PushService } from "./bot/push.server";
import type { Db } from "./db/database.server";
import { unauthenticated } from "./errors.server";
import type { ForecastService } from "./weather/forecast-service.server";
import type { OpenMeteoClient } from "./weather/open-meteo.server";

/** What lives as long as the API: shared by every request. */
export type ApiServices = {
  db: Db;
  now: () => Date;
  openMeteo: OpenMeteoClient;
  forecasts: ForecastService;
  loginLimits: { perIp: FailureLimiter; perAccount: FailureLimiter };
  inbox: Inbox;
  briefings: BriefingService;
  alerts: AlertService;
  push: PushService;
  vapidPublicKey: string;
};

/** One request's view: the services plus who is asking. */
export type ApiContext = ApiServices & {
  session: { id: string; userId: string } | null;
  clientIp: string;
};

/** The signed-in user's id, or an UNAUTHENTICATED error. */
export function requireUserId(context: ApiContext): string {
  if (!context.session) throw unauthenticated();
  return context.session.userId;
}
