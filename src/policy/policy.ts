/**
 * @module
 * The vault's access policy for agents (SPEC 4), parsed from the text of
 * `<vault>/.noted/mcp-policy.yaml`. Pure: the gate reads the file on every request and hands the text
 * here. Anything this cannot understand is a `policy_error` naming the problem and its line, never a
 * silent fallback, because a misread rule could open a hidden folder.
 *
 * Decisions where the spec is silent:
 * - An empty file (or only comments) is an empty policy: read-write everywhere, like no file.
 * - `folders:` with nothing after it is an empty folder list.
 * - Values are read with YAML's failsafe schema, so `2024:` is the folder "2024" and `true` is just
 *   an unknown access word; anchors, aliases, lists and mappings where an access word belongs are
 *   refused.
 * - A folder whose name starts with `.` is refused: such folders are always hidden from agents
 *   (SPEC 1.1), so a rule for one would promise something it cannot do.
 */
import { isAlias, isMap, isScalar, isSeq, LineCounter } from 'yaml';
import { NotedError } from '../common/errors.js';
import { parseYamlDocument } from '../markdown/frontmatter/yaml-document.js';
import { closestWord } from './closest.js';
import { depthOf, folderKey } from './folder-key.js';

/** The policy file's name inside the vault's state folder `.noted/`. */
export const POLICY_FILE_NAME = 'mcp-policy.yaml';

/** The largest policy file read; a larger one is unreadable (and the vault closed). */
export const MAX_POLICY_BYTES = 4 * 1024 * 1024;

export const ACCESS_LEVELS = ['hidden', 'read-only', 'read-write', 'staged'] as const;

/** What agents may do with the notes of a folder. */
export type Access = (typeof ACCESS_LEVELS)[number];

export interface FolderRule {
  /** The folder as written in the file, with `\` read as `/` and trailing `/` dropped. */
  readonly folder: string;
  /** Its comparison form (see `folderKey`). */
  readonly key: string;
  readonly access: Access;
  /** The rule's line in the file, from 1. */
  readonly line: number;
}

export interface Policy {
  /** Access where no folder rule matches. */
  readonly default: Access;
  /** False when the file does not say `default` (so it is read-write). */
  readonly defaultGiven: boolean;
  /** The folder rules, most specific (deepest) first. */
  readonly folders: readonly FolderRule[];
}

const TOP_LEVEL_KEYS = ['default', 'folders'] as const;
const ACCESS_LIST = 'hidden, read-only, read-write or staged';
const CONTROL_CHAR = /[\u0000-\u001f\u007f-\u009f]/;
const WINDOWS_DRIVE = /^[A-Za-z]:/;

/**
 * Parses the policy file's text. Throws `NotedError('policy_error')` whose message names the problem
 * and its line and tells the model that only the vault owner can fix it.
 *
 * @example
 * parsePolicy('default: read-only\nfolders:\n  private: hidden\n').default // 'read-only'
 * parsePolicy('folders:\n  private: hiden\n') // throws: line 2: … did you mean "hidden"?
 */
export function parsePolicy(text: string): Policy {
  const { doc, lines } = policyDocument(text);
  if ('tooDeep' in doc) {
    throw policyError(
      'it nests lists or mappings far too deeply to be a policy (which needs two levels: "folders:" and one line per folder).',
      doc.line,
    );
  }
  const yamlError = doc.errors[0];
  if (yamlError) {
    const at = yamlError.linePos?.[0];
    const what =
      yamlError.code === 'MULTIPLE_DOCS'
        ? 'the file holds more than one YAML document (a "---" line starts another); keep one'
        : yamlError.message
            .split('\n')[0]!
            .replace(/ at line \d+, column \d+:?$/, '')
            .replace(/[.:]$/, '');
    throw policyError(`it is not valid YAML${at ? ` at column ${at.col}` : ''}: ${what}.`, at?.line);
  }
  const lineOf = (node: unknown): number | undefined => {
    const range = (node as { range?: [number, number, number] } | null)?.range;
    return range ? lines.linePos(range[0]).line : undefined;
  };
  const root = doc.contents;
  if (root === null || (isScalar(root) && root.value === '')) {
    return { default: 'read-write', defaultGiven: false, folders: [] };
  }
  if (!isMap(root)) {
    throw policyError(
      `the file must be a mapping with the keys "default" and "folders" (like "default: read-only"), but it holds ${describeNode(root)}.`,
      lineOf(root),
    );
  }

  let access: Access = 'read-write';
  let defaultGiven = false;
  let folders: FolderRule[] = [];
  const seen = new Map<string, number | undefined>();
  for (const pair of root.items) {
    const line = lineOf(pair.key) ?? lineOf(pair.value);
    const key = scalarText(pair.key);
    if (key === null) throw policyError('a top-level key is not a plain word.', line);
    if (seen.has(key)) {
      throw policyError(`"${key}" is given twice (also on line ${seen.get(key)}); keep one.`, line);
    }
    seen.set(key, line);
    if (key === 'default') {
      access = accessWord(pair.value, '"default"', line);
      defaultGiven = true;
    } else if (key === 'folders') {
      folders = folderRules(pair.value, lineOf, line);
    } else {
      const guess = closestWord(key, TOP_LEVEL_KEYS);
      throw policyError(
        `unknown key "${key}"${guess ? `; did you mean "${guess}"?` : '.'} The file may only have "default" and "folders".`,
        line,
      );
    }
  }
  folders.sort((a, b) => depthOf(b.key) - depthOf(a.key));
  return { default: access, defaultGiven, folders };
}

/**
 * The policy file's text as a YAML document, read as `parsePolicy` reads it (failsafe schema: every
 * value a string), with its line counter; salvage.ts reads an invalid file the same way.
 */
export function policyDocument(text: string) {
  const lines = new LineCounter();
  const doc = parseYamlDocument(text.replace(/^\uFEFF/, ''), {
    lineCounter: lines,
    schema: 'failsafe',
    // Duplicates are found below, where case, `\` and trailing `/` count too.
    uniqueKeys: false,
  });
  return { doc, lines };
}

/**
 * The `policy_error` for a policy file that exists but cannot be read (permissions, a folder in its
 * place, bad UTF-8): the gate uses it so that case reads like every other policy problem.
 */
export function unreadablePolicy(reason: string): NotedError {
  return policyError(`the file cannot be read: ${reason}.`, undefined);
}

function folderRules(
  value: unknown,
  lineOf: (node: unknown) => number | undefined,
  keyLine: number | undefined,
): FolderRule[] {
  if (value === null || (isScalar(value) && value.value === '')) return [];
  if (!isMap(value)) {
    throw policyError(
      `"folders" must be a mapping of folder to access word (like "private: hidden" on its own, indented line), but it holds ${describeNode(value)}.`,
      lineOf(value) ?? keyLine,
    );
  }
  const rules: FolderRule[] = [];
  const byKey = new Map<string, FolderRule>();
  for (const pair of value.items) {
    const line = lineOf(pair.key) ?? lineOf(pair.value) ?? keyLine ?? 0;
    const raw = scalarText(pair.key);
    if (raw === null) throw policyError('a folder name is not plain text.', line);
    const folder = checkFolder(raw, line);
    const key = folderKey(folder);
    const earlier = byKey.get(key);
    if (earlier) {
      throw policyError(
        `the folder "${raw}" is the same folder as "${earlier.folder}" on line ${earlier.line} (folder names compare ignoring letter case, "\\" versus "/", Unicode form and a trailing "/"); keep one rule.`,
        line,
      );
    }
    const rule: FolderRule = {
      folder,
      key,
      access: accessWord(pair.value, `the folder "${raw}"`, line),
      line,
    };
    byKey.set(key, rule);
    rules.push(rule);
  }
  return rules;
}

/** The folder as written, `\` read as `/`, trailing `/` dropped; refuses (`policy_error`) what cannot name a folder. */
export function checkFolder(raw: string, line: number): string {
  const bad = (why: string): never => {
    throw policyError(`the folder ${JSON.stringify(raw)} cannot be used: ${why}.`, line);
  };
  let folder = raw.replaceAll('\\', '/');
  if (CONTROL_CHAR.test(folder)) bad('it contains a control character');
  if (folder.startsWith('/'))
    bad('folders are paths inside the vault, not absolute paths (drop the leading "/")');
  if (WINDOWS_DRIVE.test(folder)) bad('folders are paths inside the vault, not drive paths ("C:")');
  while (folder.endsWith('/')) folder = folder.slice(0, -1);
  if (folder.trim() === '') bad('the name is empty (the rule for the whole vault is "default")');
  for (const segment of folder.split('/')) {
    if (segment === '') bad('it has an empty path segment ("//")');
    if (segment === '..') bad('".." segments are not allowed; name the folder by its path inside the vault');
    if (segment === '.') bad('"." segments are not allowed; name the folder by its path inside the vault');
    if (segment.startsWith('.')) {
      bad(
        `the segment "${segment}" starts with "."; such folders (.obsidian, .git, .noted, …) are always hidden from agents and no rule can open them`,
      );
    }
  }
  return folder;
}

function accessWord(node: unknown, subject: string, line: number | undefined): Access {
  const word = scalarText(node);
  if (word === null) {
    throw policyError(
      `${subject} needs one access word (${ACCESS_LIST}), but has ${describeNode(node)}.`,
      line,
    );
  }
  if (word.trim() === '')
    throw policyError(`${subject} has no access word; give one of ${ACCESS_LIST}.`, line);
  if ((ACCESS_LEVELS as readonly string[]).includes(word)) return word as Access;
  const guess = closestWord(word, ACCESS_LEVELS);
  throw policyError(
    `unknown access word "${word}" for ${subject}${guess ? `; did you mean "${guess}"?` : '.'} The access words are ${ACCESS_LIST}.`,
    line,
  );
}

/** The text of a scalar node (failsafe schema: every scalar is a string), or null for anything else. */
function scalarText(node: unknown): string | null {
  if (isScalar(node) && typeof node.value === 'string') return node.value;
  return null;
}

function describeNode(node: unknown): string {
  if (node === null || node === undefined) return 'nothing';
  if (isSeq(node)) return 'a list';
  if (isMap(node)) return 'a mapping';
  if (isAlias(node)) return 'an alias ("*name"); write the value itself';
  if (isScalar(node)) return `the text ${JSON.stringify(String(node.value))}`;
  return 'something else';
}

function policyError(problem: string, line: number | undefined): NotedError {
  const where = line === undefined ? '' : `line ${line}: `;
  return new NotedError(
    'policy_error',
    `The vault's access policy (.noted/${POLICY_FILE_NAME}) cannot be used: ${where}${problem} Until the vault owner fixes or deletes that file, no note of this vault can be read or changed; tell the owner.`,
    { problem, ...(line === undefined ? {} : { line }) },
  );
}
