import { describe, expect, it } from 'vitest';
import { type ScannedTask, scanBody } from '../../src/markdown/scan.js';
import { isCalendarDate, parseDueDate } from '../../src/markdown/task-syntax.js';

const tasksOf = (body: string): ScannedTask[] => scanBody(body).tasks;
const one = (line: string): ScannedTask => {
  const tasks = tasksOf(line);
  expect(tasks).toHaveLength(1);
  return tasks[0] as ScannedTask;
};

describe('task lines (TSK-01, TSK-04, TSK-05)', () => {
  it('TSK-01: - [ ] is an open task and - [x] a done one; text is trimmed, line is 1-based', () => {
    expect(tasksOf('intro\n- [ ] write  \n- [x] read')).toEqual([
      { line: 2, status: ' ', text: 'write', due: null, indent: 0 },
      { line: 3, status: 'x', text: 'read', due: null, indent: 0 },
    ]);
  });

  it('TSK-01: any single character is a status: X, -, /, ?', () => {
    const body = ['- [X] a', '- [-] b', '- [/] c', '- [?] d'].join('\n');
    expect(tasksOf(body).map((t) => t.status)).toEqual(['X', '-', '/', '?']);
  });

  it('TSK-04: the markers -, *, + and ordered 1. and 1) all make tasks', () => {
    const body = ['- [ ] dash', '* [ ] star', '+ [ ] plus', '1. [ ] dot', '12) [ ] paren'].join('\n');
    expect(tasksOf(body).map((t) => t.text)).toEqual(['dash', 'star', 'plus', 'dot', 'paren']);
  });

  it('TSK-04: not tasks: -[ ] x, - [ ]x, - [  ] x, - [] x, and a plain list item', () => {
    const body = ['-[ ] x', '- [ ]x', '- [  ] x', '- [] x', '- plain', '1.[ ] x', '[ ] bare'].join('\n');
    expect(tasksOf(body)).toEqual([]);
  });

  it('TSK-01: nested tasks keep their indentation (spaces, and tabs to the next multiple of 4)', () => {
    const body = ['- [ ] parent', '  - [ ] two', '\t- [ ] tab', '\t  * [x] mixed'].join('\n');
    expect(tasksOf(body).map((t) => t.indent)).toEqual([0, 2, 4, 6]);
  });

  it('TSK-05: tasks inside blockquotes and callouts count', () => {
    const body = ['> [!todo] Callout', '> - [ ] in callout', '>- [x] tight', '> > 1. [ ] nested quote'].join(
      '\n',
    );
    expect(tasksOf(body).map((t) => [t.status, t.text, t.indent])).toEqual([
      [' ', 'in callout', 0],
      ['x', 'tight', 0],
      [' ', 'nested quote', 0],
    ]);
  });

  it('TSK-05: task syntax inside fenced code is not a task', () => {
    expect(tasksOf('```\n- [ ] in code\n```\n~~~\n- [x] tilde\n~~~\n- [ ] real').map((t) => t.text)).toEqual([
      'real',
    ]);
  });

  it('task syntax inside a %% or <!-- --> comment is not a task', () => {
    expect(tasksOf('%%\n- [ ] hidden\n%%\n<!--\n- [ ] html\n-->\n- [ ] shown').map((t) => t.text)).toEqual([
      'shown',
    ]);
  });

  it('§8 open question: "- [ ]" ending the line is no task; "- [ ] " with trailing whitespace is an empty task', () => {
    expect(tasksOf('- [ ]')).toEqual([]);
    expect(tasksOf('- [ ] ')).toEqual([{ line: 1, status: ' ', text: '', due: null, indent: 0 }]);
  });

  it('the status may be a non-ASCII character', () => {
    expect(one('- [✓] tick').status).toBe('✓');
  });
});

describe('due dates (§4.3)', () => {
  it('Tasks emoji form: 📅, 📆 and 🗓 with optional spaces before YYYY-MM-DD', () => {
    expect(one('- [ ] a 📅 2024-05-01').due).toBe('2024-05-01');
    expect(one('- [ ] a 📆2024-05-02').due).toBe('2024-05-02');
    expect(one('- [ ] a 🗓   2024-05-03').due).toBe('2024-05-03');
  });

  it('Tasks emoji form: found past other trailing fields, tags and a trailing ^block-id', () => {
    expect(one('- [ ] pay 📅 2024-05-01 ⏫ 🔁 every week ➕ 2024-04-01 #money #home ^rent').due).toBe(
      '2024-05-01',
    );
    expect(one('- [ ] pay 📅 2024-05-01 🆔 abc123 ⛔ x1,y2 ✅ 2024-05-02').due).toBe('2024-05-01');
  });

  it('§7.5: an emoji date followed by other text is ignored, as Tasks does', () => {
    expect(one('- [ ] 📅 2024-05-01 then more words').due).toBeNull();
  });

  it('Dataview form: [due:: date] or (due:: date) anywhere on the line', () => {
    expect(one('- [ ] a [due:: 2024-06-01] more text').due).toBe('2024-06-01');
    expect(one('- [ ] (due:: 2024-06-02) a').due).toBe('2024-06-02');
    expect(one('- [ ] a [Due::2024-06-03]').due).toBe('2024-06-03');
  });

  it('§7.5: due:: without brackets is not a due date on a task line', () => {
    expect(one('- [ ] pay rent due:: 2024-01-01').due).toBeNull();
  });

  it('invalid calendar dates are rejected in both forms', () => {
    expect(one('- [ ] a 📅 2023-02-29').due).toBeNull();
    expect(one('- [ ] a [due:: 2024-13-01]').due).toBeNull();
    expect(one('- [ ] a 📅 2024-02-29').due).toBe('2024-02-29');
  });

  it('the emoji form wins over the Dataview form when both are present', () => {
    expect(one('- [ ] a [due:: 2024-01-01] 📅 2024-02-02').due).toBe('2024-02-02');
  });

  it('parseDueDate reads a task text without a checkbox', () => {
    expect(parseDueDate('x 🗓️ 2030-01-31 ^id')).toBe('2030-01-31');
    expect(parseDueDate('no date')).toBeNull();
  });

  it('isCalendarDate knows leap years and month lengths', () => {
    expect(isCalendarDate('2000-02-29')).toBe(true);
    expect(isCalendarDate('1900-02-29')).toBe(false);
    expect(isCalendarDate('2024-04-31')).toBe(false);
    expect(isCalendarDate('2024-4-1')).toBe(false);
  });
});
