/**
 * @module
 * What "today" means for list_tasks' `overdue` and query_notes' `"today"`: the calendar day of the
 * gate's clock in the server's local time zone.
 *
 * Why local and not UTC: due dates are calendar days the owner wrote (`📅 2026-05-01`), and Obsidian,
 * the Tasks plugin and Bases' `today()` all read them against the local day. The server runs on the
 * owner's machine (stdio, or HTTP bound to 127.0.0.1), so its time zone is the owner's; with UTC, a
 * task due today would show as overdue every evening west of Greenwich.
 */

/**
 * The local calendar day of `date`, written `YYYY-MM-DD`.
 *
 * @example
 * localDay(new Date(2026, 4, 1, 23, 30)) // '2026-05-01', whatever the time zone
 */
export function localDay(date: Date): string {
  const y = String(date.getFullYear()).padStart(4, '0');
  const m = String(date.getMonth() + 1).padStart(2, '0');
  const d = String(date.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}
