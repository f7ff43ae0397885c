import type { CapInfo, CapMessage } from "./cap-message.server";
import type { OfficialWarning, WarningMatch, WarningServiceId } from "./official-warning.server";

export type NormaliseInput = {
  serviceId: WarningServiceId;
  /** The credit: "US National Weather Service", "MeteoAlarm / <national service>". */
  service: string;
  root: string;
  message: CapMessage;
  /** The block chosen for the reader (chooseByLanguage). */
  info: CapInfo;
  match: WarningMatch;
  area: string;
};

/** The OfficialWarning for one message, in the chosen block's language. */
export function toOfficialWarning({ serviceId, service, root, message, info, match, area }: NormaliseInput): OfficialWarning {
  const oldestFirst = [...message.references].sort((a, b) => (a.sent ?? "").localeCompare(b.sent ?? ""));
  return {
    id: `${serviceId}:${root}`,
    messageId: message.identifier,
    messageType: message.msgType!,
    replaces: oldestFirst.at(-1)?.identifier ?? null,
    references: oldestFirst.map((reference) => reference.identifier),
    service,
    serviceId,
    issuer: info.senderName,
    event: info.event,
    severity: info.severity,
    urgency: info.urgency,
    certainty: info.certainty,
    area,
    match,
    sent: message.sent,
    onset: info.onset,
    expires: info.expires,
    language: info.language,
    headline: info.headline,
    description: info.description,
    instruction: info.instruction,
    texts: message.infos.map((block) => ({
      language: block.language,
      event: block.event,
      headline: block.headline,
      description: block.description,
      instruction: block.instruction,
    })),
    web: info.web,
  };
}

/** Whether the message's hazard is over at `now` (a message without an end stays until the service drops it). */
export function isExpired(info: CapInfo, now: Date): boolean {
  return info.expires !== null && Date.parse(info.expires) < now.getTime();
}
