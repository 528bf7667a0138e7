/**
 * @module bench/lib/lexicon
 * The words generated notes are made of: ~30,000 pseudo-words plus a few hundred real words
 * (function words, content words, accented words, two-word phrases) and a few CJK phrases,
 * laid out by frequency rank for a Zipf sampler. The vocabulary does not depend on the vault
 * seed, so benchmark queries name the same words for every vault.
 */

import { deriveSeed, mulberry32 } from './random.mjs';

/** Most frequent words, in rank order (ranks 0..FUNCTION_WORDS.length-1). */
export const FUNCTION_WORDS = (
  'the of and to a in is that for it on with as was be by this are at from have an but which they you ' +
  'we their has were all can been more one will would there also its these other into some when only ' +
  'than may such about our them two each who over most first then should could after between'
).split(' ');

/** Two-word entries sampled as one word, so `"exact phrase"` queries have real matches. */
export const PHRASES = [
  'action items',
  'quarterly review',
  'design doc',
  'release notes',
  'status update',
  'open questions',
  'next steps',
  'user research',
  'code review',
  'weekly sync',
  'project plan',
  'machine learning',
  'follow up',
  'root cause',
  'style guide',
];

/** Words with diacritics (NFC), so accent handling is exercised. */
export const ACCENTED_WORDS = [
  'café',
  'naïve',
  'résumé',
  'façade',
  'crème',
  'brûlée',
  'fiancée',
  'jalapeño',
  'señor',
  'über',
  'garçon',
  'entrée',
  'soufflé',
  'doppelgänger',
  'zürich',
  'smörgåsbord',
  'piñata',
  'déjà',
  'vu',
  'coördinate',
];

/** Content words in rough frequency order; accented words and phrases are mixed in below. */
const CONTENT_WORDS = (
  'project meeting notes review plan design budget team research draft idea report client schedule ' +
  'deadline feature release update summary question decision analysis data model system process quality ' +
  'customer product market strategy goal priority risk issue task status progress document version change ' +
  'proposal feedback workshop interview roadmap milestone sprint backlog estimate invoice contract vendor ' +
  'partner hiring onboarding training policy security privacy compliance audit server database network ' +
  'deployment testing prototype experiment hypothesis result insight metric dashboard revenue cost forecast ' +
  'quarter week month year morning evening garden recipe travel library book article chapter paper journal ' +
  'reading writing language history science music painting coffee tea lunch dinner weekend holiday family ' +
  'friend health exercise running sleep habit mountain river city village forest ocean winter summer autumn ' +
  'spring weather kitchen bicycle train airport hotel museum concert theatre window letter email call ' +
  'agenda minutes owner stakeholder scope requirement specification architecture interface component ' +
  'module service pipeline integration migration upgrade incident outage monitoring alert latency ' +
  'throughput capacity storage cache index query search performance benchmark memory thread queue ' +
  'account login password permission role access token certificate license patent lawyer accountant ' +
  'tax salary bonus expense receipt payment loan mortgage insurance doctor dentist appointment medicine ' +
  'vitamin yoga swimming hiking camping fishing photography camera lens guitar piano violin novel poem ' +
  'essay lecture course exam homework teacher student university school campus laboratory microscope ' +
  'telescope planet galaxy climate carbon energy solar battery engine vehicle harbor bridge tunnel ' +
  'highway station platform ticket passport visa luggage'
).split(' ');

/**
 * All real words after the function words, in the order they take ranks. Accented words and
 * phrases are spread through the list so that each is moderately common.
 */
export const REAL_WORDS = (() => {
  const out = [];
  let a = 0;
  let p = 0;
  for (let i = 0; i < CONTENT_WORDS.length; i++) {
    out.push(CONTENT_WORDS[i]);
    if (i % 12 === 5 && a < ACCENTED_WORDS.length) out.push(ACCENTED_WORDS[a++]);
    if (i % 14 === 9 && p < PHRASES.length) out.push(PHRASES[p++]);
  }
  while (a < ACCENTED_WORDS.length) out.push(ACCENTED_WORDS[a++]);
  while (p < PHRASES.length) out.push(PHRASES[p++]);
  return out;
})();

/** CJK phrases; sentences of them are joined with 、 and end with 。 (a token boundary for FTS). */
export const CJK_PHRASES = [
  '東京の会議',
  '予算の確認',
  '議事録',
  '次のステップ',
  '日本語のメモ',
  '会议记录',
  '项目计划',
  '学习笔记',
  '北京的天气',
  '서울 회의',
];

/** Number of generated pseudo-words. */
export const PSEUDO_WORD_COUNT = 30000;

/** Real words take every REAL_WORD_STRIDE-th rank after the function words. */
export const REAL_WORD_STRIDE = 6;

const ONSETS = 'b c d f g h j k l m n p r s t v w z br cr dr fl gr kl pr st tr sh ch th'.split(' ');
const VOWELS = 'a e i o u a e i o ai ou ea io'.split(' ');
const CODAS = ['', '', '', '', 'n', 'r', 'l', 's', 'm', 'x', 'nd', 'rt'];

function pseudoWords(count) {
  const rand = mulberry32(deriveSeed(20250314, 'pseudo-words'));
  const taken = new Set([...FUNCTION_WORDS, ...REAL_WORDS, 'near', 'not', 'and', 'or']);
  const out = [];
  while (out.length < count) {
    const syllables = rand() < 0.55 ? 2 : 3;
    let w = '';
    for (let s = 0; s < syllables; s++) {
      w += ONSETS[(rand() * ONSETS.length) | 0];
      w += VOWELS[(rand() * VOWELS.length) | 0];
      if (s === syllables - 1 || rand() < 0.3) w += CODAS[(rand() * CODAS.length) | 0];
    }
    if (w.length < 4 || taken.has(w)) continue;
    taken.add(w);
    out.push(w);
  }
  return out;
}

let cached;

/**
 * The vocabulary ordered by frequency rank (index 0 = most frequent): function words first,
 * then real words every REAL_WORD_STRIDE-th rank among pseudo-words.
 * @returns {{ words: string[], realRanks: number[], pseudo: string[] }}
 */
export function rankedVocabulary() {
  if (cached) return cached;
  const pseudo = pseudoWords(PSEUDO_WORD_COUNT);
  const words = [...FUNCTION_WORDS];
  const realRanks = [];
  let r = 0;
  let p = 0;
  while (r < REAL_WORDS.length || p < pseudo.length) {
    const slot = words.length - FUNCTION_WORDS.length;
    if (r < REAL_WORDS.length && (slot % REAL_WORD_STRIDE === 0 || p >= pseudo.length)) {
      realRanks.push(words.length);
      words.push(REAL_WORDS[r++]);
    } else {
      words.push(pseudo[p++]);
    }
  }
  cached = { words, realRanks, pseudo };
  return cached;
}
