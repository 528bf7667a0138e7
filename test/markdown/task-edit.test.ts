import { describe, expect, it } from 'vitest';
import { scanNote } from '../../src/markdown/scan.js';
import { updateTask } from '../../src/markdown/task-edit.js';
import { refusal } from '../helpers/refusal.js';

const NOTE = [
  '---',
  'x: 1',
  '---',
  '# Tasks',
  '- [ ] call Bo',
  '  * [x] nested 📅 2026-01-02 #home ^blk',
  '> 1. [/] quoted [due:: 2026-03-04] more',
  '```',
  '- [ ] in code',
  '```',
  '',
].join('\n');

function lineOf(text: string, n: number): string {
  return text.split('\n')[n - 1] ?? '';
}

describe('update_task (SPEC 13.2)', () => {
  it('ticks, unticks and sets any status character, changing only that line', () => {
    const done = updateTask(NOTE, 5, { status: 'x' });
    expect(done.text).toBe(NOTE.replace('- [ ] call Bo', '- [x] call Bo'));
    expect(done.task).toEqual({ line: 5, status: 'x', done: true, text: 'call Bo', due: null });
    expect(updateTask(NOTE, 6, { status: ' ' }).text).toBe(NOTE.replace('* [x] nested', '* [ ] nested'));
    expect(lineOf(updateTask(NOTE, 7, { status: '-' }).text, 7)).toBe(
      '> 1. [-] quoted [due:: 2026-03-04] more',
    );
  });

  it('sets the due date in the form the line uses, and adds the emoji form before a block id', () => {
    expect(lineOf(updateTask(NOTE, 6, { due: '2027-07-07' }).text, 6)).toBe(
      '  * [x] nested 📅 2027-07-07 #home ^blk',
    );
    expect(lineOf(updateTask(NOTE, 7, { due: '2027-07-07' }).text, 7)).toBe(
      '> 1. [/] quoted [due:: 2027-07-07] more',
    );
    const added = updateTask(NOTE, 5, { due: '2027-07-07' });
    expect(lineOf(added.text, 5)).toBe('- [ ] call Bo 📅 2027-07-07');
    expect(added.task.due).toBe('2027-07-07');
    expect(lineOf(updateTask('- [ ] a ^id\n', 1, { due: '2027-07-07' }).text, 1)).toBe(
      '- [ ] a 📅 2027-07-07 ^id',
    );
  });

  it('removes the due date with the space before it', () => {
    expect(lineOf(updateTask(NOTE, 6, { due: null }).text, 6)).toBe('  * [x] nested #home ^blk');
    expect(lineOf(updateTask(NOTE, 7, { due: null }).text, 7)).toBe('> 1. [/] quoted more');
    expect(updateTask('- [ ] [due:: 2026-01-01] pay\n', 1, { due: null }).text).toBe('- [ ] pay\n');
    expect(updateTask(NOTE, 5, { due: null }).text).toBe(NOTE);
  });

  it('replaces the text after the checkbox, then applies due to the new text', () => {
    const r = updateTask(NOTE, 5, { text: '  call Bo and Al  ', due: '2026-09-09' });
    expect(lineOf(r.text, 5)).toBe('- [ ] call Bo and Al 📅 2026-09-09');
    expect(r.task).toMatchObject({ text: 'call Bo and Al 📅 2026-09-09', due: '2026-09-09' });
  });

  it('keeps CRLF line breaks and every other line', () => {
    const crlf = NOTE.replace(/\n/g, '\r\n');
    expect(updateTask(crlf, 5, { status: 'x' }).text).toBe(crlf.replace('- [ ] call Bo', '- [x] call Bo'));
  });

  it('agrees with the scanner: the changed line reads back as the task it reports', () => {
    const r = updateTask(NOTE, 6, { status: '!', due: '2030-01-01', text: 'renamed 📅 2020-01-01' });
    const task = scanNote(r.text).tasks.find((t) => t.line === 6);
    expect(task).toMatchObject({ status: r.task.status, text: r.task.text, due: r.task.due });
  });

  it('a line that is not a task where list_tasks sees tasks is a conflict naming the line', () => {
    for (const line of [4, 9, 2, 99]) {
      const err = refusal(() => updateTask(NOTE, line, { status: 'x' }));
      expect(err.code, String(line)).toBe('conflict');
      expect(err.details.committed).toBe(false);
    }
    expect(refusal(() => updateTask(NOTE, 9, { status: 'x' })).details.currentLine).toBe('- [ ] in code');
  });

  it('refuses changes that cannot be written', () => {
    for (const change of [
      {},
      { status: 'xx' },
      { status: '' },
      { status: ']' },
      { status: '\n' },
      { text: 'two\nlines' },
      { text: '   ' },
      { due: '2026-02-30' },
      { due: 'tomorrow' },
    ]) {
      expect(refusal(() => updateTask(NOTE, 5, change)).code, JSON.stringify(change)).toBe(
        'validation_error',
      );
    }
  });
});
