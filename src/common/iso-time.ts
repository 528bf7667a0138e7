/**
 * @module
 * ISO 8601 dates and times as the tools read them (SPEC 17.4): `2026-01-31`, `2026-01-31T09:30`,
 * `2026-01-31T09:30:00.250Z` or with an offset (`+02:00`). A date is its first instant; a time
 * without an offset is UTC, like every time the tools give back (`modified` ends in `Z`).
 * `Date.parse` alone would read a time without an offset in the server's zone and roll 2026-02-30
 * over into March, so the shape and the calendar are checked here first.
 */

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * The instant an ISO date or time names, in ms since 1970; null when the text is not one.
 *
 * @example
 * isoInstant('2026-01-31') // Date.UTC(2026, 0, 31)
 * isoInstant('2026-01-31T10:00+02:00') // Date.UTC(2026, 0, 31, 8)
 * isoInstant('2026-02-30') // null
 */
export function isoInstant(text: string): number | null {
  const m = ISO.exec(text.trim());
  if (m === null) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const year = Number(y);
  const month = Number(mo) - 1;
  const day = Number(d);
  const hour = Number(h ?? 0);
  const minute = Number(mi ?? 0);
  const second = Number(s ?? 0);
  if (month < 0 || month > 11 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const offset = offsetMs(zone);
  if (offset === null) return null;
  // setUTCFullYear, not Date.UTC, which reads years 0–99 as 1900–1999.
  const at = new Date(0);
  at.setUTCFullYear(year, month, day);
  // An impossible day rolls over into the next month: such a date is refused, not moved.
  if (at.getUTCDate() !== day) return null;
  at.setUTCHours(hour, minute, second, Math.floor(Number(frac ?? 0) * 1000));
  return at.getTime() - offset;
}

/** The zone's offset from UTC in ms; null for one no clock has (`+99:99`). */
function offsetMs(zone: string | undefined): number | null {
  if (zone === undefined || zone.toUpperCase() === 'Z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2));
  if (hours > 23 || minutes > 59) return null;
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes) * 60_000;
}
