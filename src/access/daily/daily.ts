/**
 * @module
 * get_daily_note (SPEC 13.3): the daily note of a day where Obsidian's Daily notes plugin keeps it —
 * its folder, its name (the day in the plugin's moment.js format, which may hold `/` for
 * sub-folders) and its template, from `.obsidian/daily-notes.json` with the plugin's defaults (the
 * vault root, `YYYY-MM-DD`, no template). "Today" is the server's local date, as for list_tasks.
 * With `create`, a missing daily note is created from the template like any note (policy, staging,
 * journal); a hidden one answers exactly like a missing one.
 */
import { isNotedError, NotedError } from '../../common/errors.js';
import { type DateTools, dateTools } from '../../markdown/templates.js';
import { normalizeNoteName } from '../../vault/names.js';
import type { AccessContext, Writer } from '../context.js';
import { createWithText } from '../create.js';
import { readDailyNoteSettings } from '../obsidian-settings.js';
import { readNote } from '../read.js';
import { existingCaseVariant } from '../resolve.js';
import type { Rules } from '../rules/rules.js';
import type { NoteContent, StagedResult } from '../types.js';
import { localDay } from './calendar.js';
import { readTemplate } from './templates.js';

export interface DailyNoteInput {
  /** `YYYY-MM-DD`, `today`, `yesterday` or `tomorrow`; default today. */
  readonly date?: string;
  /** Create the note from the template when it does not exist. */
  readonly create?: boolean;
}

export type DailyNote =
  | {
      readonly date: string;
      readonly exists: true;
      readonly created: boolean;
      readonly note: NoteContent;
      /** The template the settings name, when it was not found (the note was created empty). */
      readonly templateMissing?: string;
    }
  | { readonly date: string; readonly name: string; readonly exists: false; readonly created: false };

const RELATIVE_DAYS: Readonly<Record<string, number>> = { today: 0, yesterday: -1, tomorrow: 1 };

export async function getDailyNote(
  ctx: AccessContext,
  rules: Rules,
  who: Writer,
  input: DailyNoteInput,
): Promise<DailyNote | StagedResult> {
  const dates = await dateTools();
  const day = dayOf(dates, input.date, ctx.now());
  const date = localDay(day);
  const settings = readDailyNoteSettings(ctx.vault.root);
  const name = dailyNoteName(ctx, settings.folder, dates.formatDate(day, settings.format), settings);
  if (seen(ctx, rules, name)) {
    return { date, exists: true, created: false, note: readNote(ctx, rules, name) };
  }
  if (!input.create) return { date, name, exists: false, created: false };
  // "Get today's note" is asked again and again: in a staged folder, one creation waits for review.
  const waiting = waitingCreation(ctx, rules, name);
  if (waiting !== null) return waiting;
  let text = '';
  let templateMissing: string | undefined;
  if (settings.template !== '') {
    try {
      text = readTemplate(ctx, rules, settings.template, '').text;
    } catch (err) {
      // As Obsidian does: a template that cannot be found leaves the new note empty, with a notice.
      if (!isNotedError(err) || err.code !== 'not_found') throw err;
      templateMissing = settings.template;
    }
  }
  text = dates.fillDailyTemplate(text, { day, now: ctx.now(), format: settings.format });
  let created = true;
  try {
    const result = await createWithText(ctx, rules, who, 'get_daily_note', name, text);
    if ('staged' in result) return result;
  } catch (err) {
    // Created a moment ago by someone else (or there in another letter case): that one is the note.
    if (!isNotedError(err) || err.code !== 'already_exists') throw err;
    created = false;
  }
  const existing = created ? name : existingName(ctx, rules, name);
  return {
    date,
    exists: true,
    created,
    note: readNote(ctx, rules, existing),
    ...(templateMissing === undefined ? {} : { templateMissing }),
  };
}

/** The creation of `name` already waiting for the owner's review, in a staged folder; else null. */
function waitingCreation(ctx: AccessContext, rules: Rules, name: string): StagedResult | null {
  if (rules.accessOf(name) !== 'staged') return null;
  const pending = ctx.pending.list().find((p) => p.kind === 'create' && p.note === name);
  return pending ? { staged: true, pendingId: pending.id, note: name, kind: 'create' } : null;
}

function seen(ctx: AccessContext, rules: Rules, name: string): boolean {
  return ctx.vault.exists(name, rules.sight) && rules.accessOf(name) !== 'hidden';
}

function existingName(ctx: AccessContext, rules: Rules, name: string): string {
  const there = existingCaseVariant(ctx, rules, name);
  if (there !== null && rules.accessOf(there) !== 'hidden') return there;
  throw new NotedError(
    'already_exists',
    `A note at "${name}" (in another letter case) is in the way of the daily note. Nothing was written. Read it with read_note.`,
    { name },
  );
}

/** The day asked for, at local midnight. */
function dayOf(dates: DateTools, input: string | undefined, now: Date): Date {
  const text = (input ?? 'today').trim().toLowerCase();
  const relative = RELATIVE_DAYS[text];
  if (relative !== undefined) return dates.addDays(now, relative);
  const day = dates.parseDay(text);
  if (day === null) {
    throw new NotedError(
      'validation_error',
      `date must be a day written YYYY-MM-DD (such as "2026-05-01"), or "today", "yesterday" or "tomorrow"; got ${JSON.stringify(input)}.`,
      { argument: 'date' },
    );
  }
  return day;
}

function dailyNoteName(
  ctx: AccessContext,
  folder: string,
  fileName: string,
  settings: { format: string },
): string {
  try {
    return normalizeNoteName(folder === '' ? fileName : `${folder}/${fileName}`, ctx.vault.ending);
  } catch (err) {
    if (!isNotedError(err) || err.code !== 'invalid_name') throw err;
    throw new NotedError(
      'validation_error',
      `The vault's Daily notes settings (folder "${folder}", date format "${settings.format}") give the name "${fileName}", which cannot name a note: ${err.message} The vault's owner can change the settings in Obsidian (Settings → Daily notes).`,
    );
  }
}
