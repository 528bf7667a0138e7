/**
 * @module bench/lib/note-writer
 * Renders the Markdown text of one generated note: YAML frontmatter (tags, dates, sometimes
 * status and aliases), a `# Title`, Zipf-distributed prose in paragraphs and `##` sections,
 * wikilinks in their common forms, Markdown links, inline tags, tasks with due dates, code
 * blocks and now and then a CJK sentence. All choices come from the caller's seeded PRNG.
 */

import { CJK_PHRASES, rankedVocabulary } from './lexicon.mjs';
import { pick, randInt, zipfSampler } from './random.mjs';
import { tagList } from './vault-plan.mjs';

/** Section headings; `[[Note#Heading]]` links point at these. */
export const SECTION_NAMES = [
  'Summary',
  'Background',
  'Notes',
  'Decisions',
  'Risks',
  'Open questions',
  'Action items',
  'References',
  'Details',
  'Log',
];

const CODE_LANGS = ['js', 'ts', 'python', 'bash', 'sql', 'json', ''];
const DAY_MS = 86400000;
const FIRST_DAY = Date.UTC(2022, 0, 1);
const DAYS = Array.from({ length: 6 * 366 }, (_, d) =>
  new Date(FIRST_DAY + d * DAY_MS).toISOString().slice(0, 10),
);
/** Day index of 2023-01-01 and 2024-01-01 in DAYS. */
const D2023 = 365;
const D2024 = 730;

function capitalize(w) {
  return w.charAt(0).toUpperCase() + w.slice(1);
}

function encodePath(path) {
  return path.split('/').map(encodeURIComponent).join('/');
}

/**
 * Builds a renderer bound to a vault plan. Call `render(i, rand)` for note i.
 * @param {ReturnType<import('./vault-plan.mjs').planVault>} plan
 */
export function createNoteWriter(plan) {
  const { words } = rankedVocabulary();
  const tags = tagList();
  const nWords = words.length;
  const sampleWord = zipfSampler(nWords, 1.0);
  const sampleTag = zipfSampler(tags.length, 0.9);
  const samplePopular = zipfSampler(plan.titles.length, 1.0);
  const { titles, paths, folders, folderOf, popularity } = plan;
  const n = titles.length;

  function sentence(rand, len, extras) {
    const parts = new Array(len);
    for (let k = 0; k < len; k++) parts[k] = words[sampleWord(rand)];
    parts[0] = capitalize(parts[0]);
    if (len > 8 && rand() < 0.4) {
      const c = randInt(rand, 2, len - 3);
      parts[c] += ',';
    }
    if (extras !== undefined) parts.splice(randInt(rand, 1, len - 1), 0, extras);
    return `${parts.join(' ')}.`;
  }

  function linkTarget(rand, self) {
    const r = rand();
    let t;
    if (r < 0.5) {
      const f = folders[folderOf[self]];
      t = f.start + Math.floor(rand() * (f.end - f.start));
    } else if (r < 0.85) {
      t = Math.floor(rand() * n);
    } else {
      t = popularity[samplePopular(rand)];
    }
    return t === self ? (t + 1) % n : t;
  }

  function link(rand, self) {
    const r = rand();
    if (r < 0.03) return `[[Missing ${words[sampleWord(rand)]} ${words[1000 + Math.floor(rand() * 20000)]}]]`;
    const t = linkTarget(rand, self);
    const name = titles[t];
    if (r < 0.6) return `[[${name}]]`;
    if (r < 0.75) return `[[${name}|${words[sampleWord(rand)]} ${words[sampleWord(rand)]}]]`;
    if (r < 0.9) return `[[${name}#${pick(rand, SECTION_NAMES)}]]`;
    return `[${name.toLowerCase()}](${encodePath(paths[t])})`;
  }

  function tasks(rand) {
    const count = randInt(rand, 1, 6);
    const lines = [];
    for (let k = 0; k < count; k++) {
      const box = rand() < 0.6 ? '[ ]' : '[x]';
      const len = randInt(rand, 3, 8);
      const parts = [];
      for (let j = 0; j < len; j++) parts.push(words[sampleWord(rand)]);
      let line = `- ${box} ${capitalize(parts.join(' '))}`;
      if (rand() < 0.7) line += ` 📅 ${DAYS[D2024 + Math.floor(rand() * 4 * 365)]}`;
      lines.push(line);
    }
    return lines.join('\n');
  }

  function codeBlock(rand) {
    const lang = pick(rand, CODE_LANGS);
    const lines = [`\`\`\`${lang}`];
    const count = randInt(rand, 2, 8);
    for (let k = 0; k < count; k++) {
      const a = words[1000 + Math.floor(rand() * 5000)];
      const b = words[1000 + Math.floor(rand() * 5000)];
      lines.push(k === 1 ? `// see [[Not a link]] #not-a-tag ${a}` : `const ${a} = compute("${b}", ${k});`);
    }
    lines.push('```');
    return lines.join('\n');
  }

  function frontmatter(rand, noteTags) {
    const lines = ['---'];
    if (rand() < 0.75) {
      lines.push('tags:');
      for (const t of noteTags) lines.push(`  - ${t}`);
    } else {
      lines.push(`tags: [${noteTags.join(', ')}]`);
    }
    const created = D2023 + Math.floor(rand() * 3 * 365);
    lines.push(`created: ${DAYS[created]}`);
    if (rand() < 0.5) lines.push(`due: ${DAYS[created + randInt(rand, 3, 300)]}`);
    if (rand() < 0.15) lines.push('status: draft');
    if (rand() < 0.1) {
      lines.push('aliases:');
      const count = randInt(rand, 1, 2);
      for (let k = 0; k < count; k++) {
        lines.push(`  - ${capitalize(words[sampleWord(rand)])} ${words[200 + Math.floor(rand() * 3000)]}`);
      }
    }
    lines.push('---');
    return lines.join('\n');
  }

  /** Returns the full text of note i. */
  function render(i, rand) {
    const noteTags = [];
    const tagCount = randInt(rand, 1, 4);
    while (noteTags.length < tagCount) {
      const t = tags[sampleTag(rand)];
      if (!noteTags.includes(t)) noteTags.push(t);
    }
    const budget = randInt(rand, 200, 1500);
    const expectedSentences = budget / 13;
    const pLink = randInt(rand, 2, 12) / expectedSentences;
    const pTag = rand() < 0.3 ? randInt(rand, 1, 3) / expectedSentences : 0;
    const pExternal = rand() < 0.3 ? 1 / expectedSentences : 0;
    const sections = randInt(rand, 1, 4);
    const sectionEvery = Math.max(1, Math.floor(budget / 80 / sections));
    const taskAt = rand() < 0.4 ? randInt(rand, 0, sections - 1) : -1;
    const codeAt = rand() < 0.1 ? randInt(rand, 0, sections - 1) : -1;
    const usedSections = new Set();

    const out = [frontmatter(rand, noteTags), `# ${titles[i]}`];
    let written = 0;
    let paragraph = 0;
    let section = -1;
    while (written < budget) {
      if (paragraph % sectionEvery === 0 && section < sections - 1 && paragraph > 0) {
        section++;
        let heading = pick(rand, SECTION_NAMES);
        if (usedSections.has(heading)) heading = `${heading} ${section + 2}`;
        usedSections.add(heading);
        out.push(`## ${heading}`);
        if (section === taskAt) out.push(tasks(rand));
        if (section === codeAt) out.push(codeBlock(rand));
      }
      const target = Math.min(randInt(rand, 40, 120), budget - written + 5);
      const sentences = [];
      let count = 0;
      while (count < target) {
        let extra;
        const r = rand();
        if (r < pLink) extra = link(rand, i);
        else if (r < pLink + pTag) extra = `#${tags[sampleTag(rand)]}`;
        else if (r < pLink + pTag + pExternal)
          extra = `[docs](https://example.com/${words[2000 + (i % 9000)]})`;
        const len = randInt(rand, 6, 20);
        sentences.push(sentence(rand, len, extra));
        count += len;
      }
      if (rand() < 0.03) {
        const k = randInt(rand, 1, 3);
        const parts = [];
        for (let j = 0; j < k; j++) parts.push(pick(rand, CJK_PHRASES));
        sentences.push(`${parts.join('、')}。`);
      }
      out.push(sentences.join(' '));
      written += count;
      paragraph++;
    }
    if (taskAt >= 0 && section < taskAt) out.push(tasks(rand));
    if (codeAt >= 0 && section < codeAt) out.push(codeBlock(rand));
    return `${out.join('\n\n')}\n`;
  }

  return { render };
}
