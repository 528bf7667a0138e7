/**
 * @module
 * Obsidian's template variables (SPEC 13.3), filled as its core plugins fill them. Dates are
 * formatted with moment.js, the library Obsidian itself formats them with, so every format token a
 * vault's settings or templates use (`YYYY`, `Do`, `ww`, `dddd`, `[literal]` …) gives what Obsidian
 * gives; the server's local time zone is Obsidian's too. Pure: the caller passes the clock.
 *
 * - Templates (create_note `template`): `{{title}}` is the new note's title, `{{date}}` and
 *   `{{time}}` are now in the Templates settings' formats, `{{date:FORMAT}}` / `{{time:FORMAT}}` now
 *   in FORMAT.
 * - Daily notes (get_daily_note): `{{date}}` and `{{title}}` are the note's name (its date in the
 *   Daily notes format), `{{time}}` is now as `HH:mm`; `{{date:FORMAT}}` and `{{time:FORMAT}}` are the
 *   note's day at the current time of day, in FORMAT, optionally moved first (`{{date+1d:FORMAT}}`,
 *   units y q m w d h s); `{{yesterday}}` and `{{tomorrow}}` are the days around it in the Daily notes
 *   format. (As obsidian-daily-notes-interface mirrors the core plugin.)
 *
 * Variable names are case-insensitive and may have spaces inside the braces. Anything else between
 * `{{` and `}}` (another plugin's syntax, such as Templater's `<% %>`) is left as it is.
 */

import type Moment from 'moment';

type MomentFn = typeof Moment;

let loaded: Promise<DateTools> | undefined;

/**
 * The date functions, with moment.js loaded on first use: evaluating the library costs every server
 * start 10–20 ms, and most sessions never format a date.
 *
 * @example
 * const { formatDate } = await dateTools();
 */
export function dateTools(): Promise<DateTools> {
  loaded ??= import('moment').then(({ default: moment }) => toolsOf(moment));
  return loaded;
}

export interface DateTools {
  formatDate(date: Date, format: string): string;
  parseDay(text: string): Date | null;
  addDays(date: Date, days: number): Date;
  fillTemplate(text: string, vars: TemplateVars): string;
  fillDailyTemplate(text: string, vars: DailyVars): string;
}

export interface TemplateVars {
  readonly title: string;
  readonly now: Date;
  readonly dateFormat: string;
  readonly timeFormat: string;
}

export interface DailyVars {
  readonly day: Date;
  readonly now: Date;
  readonly format: string;
}

function toolsOf(moment: MomentFn): DateTools {
  return {
    formatDate: (date, format) => formatDate(moment, date, format),
    parseDay: (text) => parseDay(moment, text),
    addDays: (date, days) => moment(date).startOf('day').add(days, 'days').toDate(),
    fillTemplate: (text, vars) => fillTemplate(moment, text, vars),
    fillDailyTemplate: (text, vars) => fillDailyTemplate(moment, text, vars),
  };
}

/** A format longer than this is not a date format: it is left as written. */
const MAX_FORMAT = 100;

// One pass each, so that a value filled in (a title holding "{{date}}") is never read as a variable.
const FORMAT = `(?::([^{}\\n]{0,${MAX_FORMAT}}))?`;
const CORE_VARIABLE = new RegExp(`{{\\s*(?:(title)|(date|time)\\s*${FORMAT})\\s*}}`, 'gi');
const DAILY_VARIABLE = new RegExp(
  `{{\\s*(?:(title|yesterday|tomorrow)|(date|time)\\s*(?:([+-]\\d{1,6})([yqmwdhs]))?\\s*${FORMAT})\\s*}}`,
  'gi',
);

/**
 * `date` formatted with a moment.js format, in local time.
 *
 * @example
 * formatDate(new Date(2026, 4, 1), 'dddd, MMMM Do YYYY') // 'Friday, May 1st 2026'
 */
function formatDate(moment: MomentFn, date: Date, format: string): string {
  return moment(date).format(format);
}

/**
 * The day `YYYY-MM-DD` names, at local midnight; null when it names no day.
 *
 * @example
 * parseDay('2026-02-30') // null
 */
function parseDay(moment: MomentFn, text: string): Date | null {
  const m = moment(text, 'YYYY-MM-DD', true);
  return m.isValid() ? m.toDate() : null;
}

/**
 * A template filled as the core Templates plugin fills it.
 *
 * @example
 * fillTemplate('# {{title}}\n{{date:YYYY}}', { title: 'Plan', now, dateFormat: 'YYYY-MM-DD', timeFormat: 'HH:mm' })
 */
function fillTemplate(moment: MomentFn, text: string, vars: TemplateVars): string {
  const now = moment(vars.now);
  return text.replace(
    CORE_VARIABLE,
    (_all, title: string | undefined, which: string | undefined, format: string | undefined) => {
      if (title !== undefined) return vars.title;
      const fallback = which?.toLowerCase() === 'date' ? vars.dateFormat : vars.timeFormat;
      return now.format(format?.trim() || fallback);
    },
  );
}

/**
 * A daily note's template filled as the Daily notes core plugin fills it.
 *
 * @example
 * fillDailyTemplate('# {{date:dddd}}\n[[{{yesterday}}]]', { day, now, format: 'YYYY-MM-DD' })
 */
function fillDailyTemplate(moment: MomentFn, text: string, vars: DailyVars): string {
  const day = moment(vars.day);
  const now = moment(vars.now);
  const name = day.format(vars.format);
  const named: Record<string, () => string> = {
    title: () => name,
    yesterday: () => day.clone().subtract(1, 'day').format(vars.format),
    tomorrow: () => day.clone().add(1, 'day').format(vars.format),
  };
  return text.replace(
    DAILY_VARIABLE,
    (
      _all,
      word: string | undefined,
      which: string | undefined,
      delta: string | undefined,
      unit: string | undefined,
      format: string | undefined,
    ) => {
      if (word !== undefined) return named[word.toLowerCase()]!();
      if (delta === undefined && format === undefined) {
        return which?.toLowerCase() === 'date' ? name : now.format('HH:mm');
      }
      const at = day.clone().set({ hour: now.hour(), minute: now.minute(), second: now.second() });
      if (delta !== undefined && unit !== undefined) {
        at.add(Number.parseInt(delta, 10), unit as Moment.unitOfTime.DurationConstructor);
      }
      return at.format(format?.trim() || vars.format);
    },
  );
}
