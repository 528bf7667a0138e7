import { describe, expect, it } from 'vitest';
import { dateTools } from '../../src/markdown/templates.js';

const { addDays, fillDailyTemplate, fillTemplate, formatDate, parseDay } = await dateTools();

/** A local time, whatever the time zone the tests run in. */
const NOW = new Date(2026, 4, 1, 14, 7, 9);

describe('moment.js formats, as Obsidian formats dates', () => {
  it('formats the tokens vaults use', () => {
    expect(formatDate(NOW, 'YYYY-MM-DD')).toBe('2026-05-01');
    expect(formatDate(NOW, 'dddd, MMMM Do YYYY [at] HH:mm')).toBe('Friday, May 1st 2026 at 14:07');
    expect(formatDate(NOW, 'YYYY/MM/[Week] ww')).toBe('2026/05/Week 18');
    expect(formatDate(NOW, 'gggg-[W]ww, ddd D MMM YY, h:mm a')).toBe('2026-W18, Fri 1 May 26, 2:07 pm');
  });

  it('reads only real days written YYYY-MM-DD, at local midnight', () => {
    expect(parseDay('2026-05-01')?.getTime()).toBe(new Date(2026, 4, 1).getTime());
    for (const bad of ['2026-02-30', '2026-5-1', 'May 1', '2026-05-01T00:00'])
      expect(parseDay(bad), bad).toBeNull();
    expect(addDays(NOW, -1).getTime()).toBe(new Date(2026, 3, 30).getTime());
  });
});

describe('core Templates variables (SPEC 13.3)', () => {
  const vars = { title: 'Plan', now: NOW, dateFormat: 'DD.MM.YYYY', timeFormat: 'h:mm a' };

  it('fills title, date and time in the settings’ formats, and date:FORMAT / time:FORMAT', () => {
    expect(
      fillTemplate(
        '# {{title}}\n{{date}} {{time}}\n{{date:YYYY-MM-DD}} {{time:HH:mm}} {{ DATE : YYYY }}',
        vars,
      ),
    ).toBe('# Plan\n01.05.2026 2:07 pm\n2026-05-01 14:07 2026');
  });

  it('leaves other braces alone and never reads a filled-in value as a variable', () => {
    expect(fillTemplate('{{other}} <% tp.date.now() %> {{date:a}b}} {{', vars)).toBe(
      '{{other}} <% tp.date.now() %> {{date:a}b}} {{',
    );
    expect(fillTemplate('{{title}}', { ...vars, title: '{{date}} $& $1' })).toBe('{{date}} $& $1');
  });

  it('an empty or overlong format falls back or stays as written', () => {
    expect(fillTemplate('{{date:}}', vars)).toBe('01.05.2026');
    const long = `{{date:${'Y'.repeat(101)}}}`;
    expect(fillTemplate(long, vars)).toBe(long);
  });
});

describe('Daily notes template variables (SPEC 13.3)', () => {
  const day = new Date(2026, 2, 1);

  it('date and title are the note’s name; date:FORMAT is its day; yesterday, tomorrow and offsets', () => {
    const out = fillDailyTemplate(
      '{{title}}|{{date}}|{{time}}|{{date:dddd}}|{{date+1d:YYYY-MM-DD}}|{{date-1w}}|{{yesterday}}|{{tomorrow}}|{{time:HH:mm}}',
      { day, now: NOW, format: 'YYYY/MM/DD' },
    );
    expect(out).toBe('2026/03/01|2026/03/01|14:07|Sunday|2026-03-02|2026/02/22|2026/02/28|2026/03/02|14:07');
  });
});
