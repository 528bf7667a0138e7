/**
 * @module bench/lib/vault-plan
 * The skeleton of a generated vault, decided before any text is written: the folder tree
 * (up to 4 levels, 50–200 notes a folder), every note's unique title and path, the tag set,
 * and a popularity order that makes a few notes heavily linked. Pure and seeded.
 */

import { REAL_WORDS, rankedVocabulary } from './lexicon.mjs';
import { deriveSeed, mulberry32, pick, randInt } from './random.mjs';

const TOP_FOLDERS = [
  'projects',
  'areas',
  'resources',
  'journal',
  'meetings',
  'people',
  'reading',
  'archive',
  'inbox',
  'notes',
];

const GREEK =
  'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega'.split(
    ' ',
  );

const CHILD_FOLDERS = [
  ...GREEK,
  '2023',
  '2024',
  '2025',
  'meetings',
  'drafts',
  'research',
  'ideas',
  'specs',
  'reviews',
  'planning',
  'retros',
  'clients',
  'vendors',
  'reference',
  'daily',
  'weekly',
  'q1',
  'q2',
  'q3',
  'q4',
  'travel',
  'health',
  'finance',
  'books',
  'papers',
];

let tags;

/** The ~200 tags notes draw from (frontmatter and inline), common ones first. */
export function tagList() {
  if (tags) return tags;
  const base = (
    'meeting idea todo research reading journal daily weekly review draft reference person book article ' +
    'recipe travel health finance learning writing code design bug feature question decision howto log ' +
    'plan goal habit inbox archive someday urgent important waiting followup summary retro interview ' +
    'hiring budget risk roadmap release incident postmortem architecture security privacy legal ' +
    'marketing sales support onboarding training workshop conference podcast video course paper quote ' +
    'café naïve-ideas'
  ).split(' ');
  const areas =
    'work home health finance learning family garden music sport travel writing career community tech admin house'.split(
      ' ',
    );
  const topics = REAL_WORDS.filter((w) => !w.includes(' ') && /^[a-z]+$/.test(w)).slice(40, 80);
  const nested = [];
  for (let i = 0; i < 20; i++) nested.push(`topic/${topics[i]}/${topics[(i * 7 + 3) % topics.length]}`);
  const { pseudo } = rankedVocabulary();
  tags = [
    ...base,
    ...GREEK.map((g) => `project/${g}`),
    ...areas.map((a) => `area/${a}`),
    ...topics.map((t) => `topic/${t}`),
    ...nested,
    ...pseudo.slice(0, 20).map((p) => `person/${p}`),
    'year/2023',
    'year/2024',
    'year/2025',
    'status/active',
    'status/blocked',
    'status/done',
    'status/someday',
    'status/review',
  ];
  return tags;
}

function capitalize(w) {
  return w.charAt(0).toUpperCase() + w.slice(1);
}

function planFolders(rand, count) {
  const folders = [{ path: '', depth: 0 }];
  const seen = new Set(['']);
  for (const top of TOP_FOLDERS) {
    if (folders.length >= count) break;
    folders.push({ path: top, depth: 1 });
    seen.add(top);
  }
  const { pseudo } = rankedVocabulary();
  while (folders.length < count) {
    const parent = folders[1 + Math.floor(rand() * (folders.length - 1))];
    if (parent.depth >= 4) continue;
    const name = rand() < 0.6 ? pick(rand, CHILD_FOLDERS) : pick(rand, pseudo);
    const path = `${parent.path}/${name}`;
    if (seen.has(path)) continue;
    seen.add(path);
    folders.push({ path, depth: parent.depth + 1 });
  }
  return folders;
}

function noteTitle(rand, pseudo) {
  const n = randInt(rand, 2, 4);
  const words = [];
  for (let i = 0; i < n; i++) {
    words.push(rand() < 0.5 ? pick(rand, REAL_WORDS) : pick(rand, pseudo));
  }
  words[0] = capitalize(words[0]);
  return words.join(' ');
}

/**
 * Plans a vault of `notes` notes.
 * @returns {{ folders: {path: string, start: number, end: number}[], titles: string[],
 *   paths: string[], folderOf: Int32Array, popularity: Int32Array }}
 */
export function planVault({ notes, seed }) {
  const rand = mulberry32(deriveSeed(seed, 'plan'));
  const sizes = [];
  let total = 0;
  while (total < notes) {
    const size = Math.min(randInt(rand, 50, 200), notes - total);
    if (size < 50 && sizes.length > 0) sizes[sizes.length - 1] += size;
    else sizes.push(size);
    total += size;
  }
  const tree = planFolders(rand, sizes.length);
  const { pseudo } = rankedVocabulary();
  const titles = new Array(notes);
  const paths = new Array(notes);
  const folderOf = new Int32Array(notes);
  const folders = [];
  const taken = new Set();
  let i = 0;
  for (let f = 0; f < sizes.length; f++) {
    const start = i;
    const dir = tree[f].path;
    for (let k = 0; k < sizes[f]; k++, i++) {
      let title = noteTitle(rand, pseudo);
      if (taken.has(title.toLowerCase())) title = `${title} ${i}`;
      taken.add(title.toLowerCase());
      titles[i] = title;
      paths[i] = dir === '' ? `${title}.md` : `${dir}/${title}.md`;
      folderOf[i] = f;
    }
    folders.push({ path: dir, start, end: i });
  }
  const popularity = new Int32Array(notes);
  for (let k = 0; k < notes; k++) popularity[k] = k;
  for (let k = notes - 1; k > 0; k--) {
    const j = Math.floor(rand() * (k + 1));
    const t = popularity[k];
    popularity[k] = popularity[j];
    popularity[j] = t;
  }
  return { folders, titles, paths, folderOf, popularity };
}
