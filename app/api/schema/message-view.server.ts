import type { MessageTable } from "../db/tables";

/** A message row as the Message type's resolvers receive it. */
export function messageView(row: MessageTable) {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    createdAt: row.created_at,
    readAt: row.read_at,
    urgent: row.urgent === 1,
    placeId: row.place_id,
    briefingId: row.briefing_id,
    alertRuleId: row.alert_rule_id,
    matchJson: row.match_json,
    userId: row.user_id,
  };
}
export type MessageView = ReturnType<typeof messageView>;
