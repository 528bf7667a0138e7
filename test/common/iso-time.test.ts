/**
 * ISO dates and times as the tools read them (date filters, list_changes since, expected_modified,
 * a note's `created`): what is read, as which instant, and what is refused rather than moved.
 */
import { expect, it } from 'vitest';
import { isoInstant } from '../../src/common/iso-time.js';

it('reads dates, times, fractions and offsets as the instant they name; a time without an offset is UTC', () => {
  expect(isoInstant('2026-01-31')).toBe(Date.UTC(2026, 0, 31));
  expect(isoInstant('2026-01-31T09:30')).toBe(Date.UTC(2026, 0, 31, 9, 30));
  expect(isoInstant('2026-01-31 09:30:15')).toBe(Date.UTC(2026, 0, 31, 9, 30, 15));
  expect(isoInstant('2026-01-31T09:30:00.250Z')).toBe(Date.UTC(2026, 0, 31, 9, 30, 0, 250));
  expect(isoInstant('2026-01-31T10:00+02:00')).toBe(Date.UTC(2026, 0, 31, 8));
  expect(isoInstant('2026-01-31T10:00-0530')).toBe(Date.UTC(2026, 0, 31, 15, 30));
  expect(isoInstant('  2024-02-29  ')).toBe(Date.UTC(2024, 1, 29));
  expect(isoInstant('0099-03-01')).toBe(new Date(0).setUTCFullYear(99, 2, 1));
});

it.each([
  ['2026-02-30', 'a day the month does not have'],
  ['2025-02-29', 'a leap day in a common year'],
  ['2026-00-15', 'month 00 (rolled back into the year before)'],
  ['2026-13-01', 'month 13'],
  ['2026-01-00', 'day 00'],
  ['2026-01-31T24:00', 'hour 24'],
  ['2026-01-31T10:60', 'minute 60'],
  ['2026-01-31T10:00:60', 'second 60'],
  ['2026-01-31T10:00+99:99', 'an offset no clock has'],
  ['2026-01-31T10:00+24:00', 'an offset of a whole day'],
  ['2026-1-31', 'a month of one digit'],
  ['31/01/2026', 'another shape'],
  ['', 'nothing'],
])('%j is refused: %s', (text) => {
  expect(isoInstant(text)).toBeNull();
});
