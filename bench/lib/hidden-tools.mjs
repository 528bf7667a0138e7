/**
 * @module bench/lib/hidden-tools
 * bench/hidden-timing.mjs --tools (issue 35 finding 5): whether the time of the reading tools other
 * than search tells what hidden notes hold. A vault of `visible` plain notes and `hidden` notes in a
 * hidden folder, each hidden note linking to `pub/t-hidden`, tagged `#zqhiddentag` and holding a task
 * `zqhiddentask`; `pub/t-absent` is linked from nowhere. Each tool is asked, in alternating rounds,
 * about what only hidden notes hold and about what nothing holds: the medians and their ratio (1 when
 * the time tells nothing). Prints figures; asserts nothing about time.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killAllServers, startServer } from './server-session.mjs';
import { summarize } from './stats.mjs';

const PAIRS = [
  ['get_backlinks', { name: 'pub/t-hidden' }, { name: 'pub/t-absent' }],
  ['list_by_tag', { tag: 'zqhiddentag' }, { tag: 'zqabsenttag' }],
  ['list_tasks', { text: 'zqhiddentask' }, { text: 'zqabsenttask' }],
  ['export_notes', { format: 'json', tag: 'zqhiddentag' }, { format: 'json', tag: 'zqabsenttag' }],
  ['get_note_outline', { name: 'pub/t-hidden' }, { name: 'pub/t-absent' }],
];

export async function hiddenTools({ serverPath, hidden, visible, rounds }) {
  const tmp = mkdtempSync(join(tmpdir(), 'noted-bench-hidden-tools-'));
  process.on('exit', () => {
    killAllServers();
    rmSync(tmp, { recursive: true, force: true });
  });
  const vault = join(tmp, 'vault');
  for (const dir of ['pub', 'zz-hidden', '.noted']) mkdirSync(join(vault, dir), { recursive: true });
  writeFileSync(join(vault, '.noted', 'mcp-policy.yaml'), 'folders:\n  zz-hidden: hidden\n');
  writeFileSync(join(vault, 'pub', 't-hidden.md'), '# Target\n');
  writeFileSync(join(vault, 'pub', 't-absent.md'), '# Target\n');
  for (let i = 0; i < visible; i++) {
    writeFileSync(
      join(vault, 'pub', `v${i}.md`),
      `# Visible ${i}\n\n#visible plan budget [[v${(i + 1) % visible}]]\n\n- [ ] visible task ${i}\n`,
    );
  }
  for (let i = 0; i < hidden; i++) {
    writeFileSync(
      join(vault, 'zz-hidden', `h${i}.md`),
      `# Hidden ${i}\n\n#zqhiddentag [[t-hidden]] secret\n\n- [ ] zqhiddentask ${i}\n`,
    );
  }
  const session = await startServer({ serverPath, vault, connectTimeoutMs: 600_000 });
  console.log(`tools: ${visible} visible notes, ${hidden} hidden, ${rounds} rounds; server ${serverPath}`);
  try {
    for (const [tool, hiddenArgs, absentArgs] of PAIRS) {
      const samples = { hidden: [], absent: [] };
      const answers = {};
      for (let r = 0; r < rounds; r++) {
        const order = r % 2 === 0 ? ['hidden', 'absent'] : ['absent', 'hidden'];
        for (const kind of order) {
          const t = performance.now();
          const res = await session.client.callTool(
            { name: tool, arguments: kind === 'hidden' ? hiddenArgs : absentArgs },
            { timeout: 600_000 },
          );
          samples[kind].push(performance.now() - t);
          answers[kind] = JSON.stringify(res.structuredContent ?? {})
            .replaceAll('t-hidden', 't-X')
            .replaceAll('t-absent', 't-X')
            .replaceAll('zqhidden', 'zqX')
            .replaceAll('zqabsent', 'zqX');
        }
      }
      const h = summarize(samples.hidden);
      const a = summarize(samples.absent);
      const same = answers.hidden === answers.absent ? 'same answers' : 'ANSWERS DIFFER';
      console.log(
        `  ${tool.padEnd(17)} hidden-only median ${String(h.median).padStart(7)} ms, nothing ${String(a.median).padStart(7)} ms, ratio ${(h.median / a.median).toFixed(2)} (${same})`,
      );
    }
  } finally {
    await session.close();
  }
}
