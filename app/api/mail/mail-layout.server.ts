/** What one mail says, before it is laid out as plain text and as HTML. */
export type MailContent = {
  locale: string;
  subject: string;
  /** A heading (the HTML's h1; the text's first line). */
  heading: string;
  /** Paragraphs before the button; a paragraph's lines stay lines. */
  paragraphs: string[];
  /** The one thing to do: a button in HTML, the bare URL on a line of its own in text. */
  action?: { label: string; url: string };
  /** After the button: small print. */
  notes?: string[];
  /** Links at the foot (open the app, unsubscribe). */
  links?: Array<{ label: string; url: string }>;
  footer: string;
};

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
/** Everything a user wrote (a briefing's name, a place's label) is text, never markup. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

const BUTTON_STYLE =
  "background:#1d4ed8;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block;font-weight:600";
const BODY_STYLE =
  "margin:0;padding:24px;background:#f3f4f6;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#111827;line-height:1.5";

const paragraphHtml = (text: string) =>
  `<p style="margin:0 0 16px">${text
    .split("\n")
    .map((line) => escapeHtml(line))
    .join("<br>")}</p>`;

/**
 * The plain-text and HTML parts of a mail: simple, one column, inline styles only (mail clients
 * drop style sheets), the link under a button also written out, so it works where buttons do not.
 */
export function layOutMail(content: MailContent): { subject: string; text: string; html: string } {
  const text = [
    content.heading,
    "",
    ...content.paragraphs.flatMap((paragraph) => [paragraph, ""]),
    ...(content.action ? [`${content.action.label}:`, content.action.url, ""] : []),
    ...(content.notes ?? []).flatMap((note) => [note, ""]),
    ...(content.links ?? []).map((link) => `${link.label}: ${link.url}`),
    ...(content.links?.length ? [""] : []),
    "-- ",
    content.footer,
  ].join("\n");

  const button = content.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(content.action.url)}" style="${BUTTON_STYLE}">` +
      `${escapeHtml(content.action.label)}</a></p>` +
      `<p style="margin:0 0 16px;font-size:13px;color:#4b5563;word-break:break-all">${escapeHtml(content.action.url)}</p>`
    : "";
  const links = (content.links ?? [])
    .map((link) => `<a href="${escapeHtml(link.url)}" style="color:#1d4ed8">${escapeHtml(link.label)}</a>`)
    .join(" · ");
  const html = `<!doctype html>
<html lang="${escapeHtml(content.locale)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(content.subject)}</title></head>
<body style="${BODY_STYLE}">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(content.heading)}</h1>
${content.paragraphs.map(paragraphHtml).join("\n")}
${button}
${(content.notes ?? []).map((note) => `<p style="margin:0 0 12px;font-size:14px;color:#4b5563">${escapeHtml(note)}</p>`).join("\n")}
${links ? `<p style="margin:16px 0 0;font-size:14px">${links}</p>` : ""}
</div>
<p style="max-width:560px;margin:16px auto 0;font-size:12px;color:#6b7280;text-align:center">${escapeHtml(content.footer)}</p>
</body>
</html>
`;
  return { subject: content.subject, text, html };
}
