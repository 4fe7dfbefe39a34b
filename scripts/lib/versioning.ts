/**
 * The Versioning section of the merchant API's `info.description`: `## Versioning`, a paragraph, then the
 * dated change list, newest first (`- 2026-11-23: …`, `- 2026-07: …`).
 */

/** The section's text, from its heading to the next `## ` heading (empty when there is none). */
export function versioningSection(description: string): string {
  const start = description.search(/^## Versioning\s*$/m);
  if (start < 0) return '';
  const rest = description.slice(start);
  const next = rest.slice(1).search(/^## /m);
  return (next < 0 ? rest : rest.slice(0, next + 1)).trim();
}

/** The newest full date (YYYY-MM-DD) among the list's entries, or undefined. */
export function latestVersioningDate(section: string): string | undefined {
  const dates = [...section.matchAll(/^- (\d{4}-\d{2}-\d{2})\b/gm)].map((m) => m[1] ?? '');
  return dates.sort().at(-1);
}
