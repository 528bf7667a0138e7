/**
 * @module
 * What `noted-mcp doctor` checks (SPEC 12.4), each a function a test can call on a vault it broke:
 * the vault is there and readable, the native modules load, the index matches the files, the policy
 * parses, the journal verifies, the HTTP token file is private, `.noted/` is kept out of git, and which
 * known clients have the server configured. None writes anything: doctor only looks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { openIndexReadOnly } from '../index/db/database.js';
import { loadIndexedFiles } from '../index/sync/sync.js';
import { PackIndex } from '../journal/blob-packs.js';
import { packDir } from '../journal/files.js';
import type { JournalKeyState } from '../journal/journal-key.js';
import { interruptedOperations, interruptedText } from '../journal/operations.js';
import { verifyJournal } from '../journal/verify.js';
import { POLICY_FILE_NAME, parsePolicy } from '../policy/policy.js';
import { chooseFormat, countNoteFiles, mixedFormatAdvice } from '../vault/format-choice.js';
import { ENDING_OF } from '../vault/format-name.js';
import { STATE_DIR_NAME } from '../vault/vault.js';
import { walkVault } from '../vault/walk.js';

/** One check's outcome. `info` reports without failing (which clients are configured). */
export interface CheckResult {
  readonly name: string;
  readonly status: 'ok' | 'fail' | 'info';
  readonly detail: string;
  /** What to do about a failure. */
  readonly fix?: string;
}

const ok = (name: string, detail: string): CheckResult => ({ name, status: 'ok', detail });
const fail = (name: string, detail: string, fix: string): CheckResult => ({
  name,
  status: 'fail',
  detail,
  fix,
});

const state = (vault: string, ...parts: string[]) => path.join(vault, STATE_DIR_NAME, ...parts);

export function checkVault(vault: string): CheckResult {
  const name = 'vault folder';
  try {
    if (!fs.statSync(vault).isDirectory()) {
      return fail(name, `${vault} is not a folder`, 'Pass the vault folder with --notes-dir DIR.');
    }
    fs.accessSync(vault, fs.constants.R_OK | fs.constants.X_OK);
    fs.readdirSync(vault);
    return ok(name, `${vault} exists and is readable`);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      return fail(
        name,
        `${vault} does not exist`,
        'Create it, or pass the right folder with --notes-dir DIR.',
      );
    }
    return fail(
      name,
      `${vault} cannot be read (${code ?? (err as Error).message})`,
      `Give your user read access: chmod u+rx ${vault}`,
    );
  }
}

/** Loads the native modules; `load` is replaceable so a test can make one fail. */
export async function checkNativeModules(
  load: (id: string) => Promise<unknown> = defaultLoad,
): Promise<CheckResult> {
  const name = 'native modules';
  try {
    const mod = (await load('better-sqlite3')) as { default?: unknown };
    const Database = (mod.default ?? mod) as new (file: string) => { exec(sql: string): void; close(): void };
    const db = new Database(':memory:');
    db.exec('CREATE VIRTUAL TABLE t USING fts5(x)');
    db.close();
    await load('@parcel/watcher');
    return ok(name, 'better-sqlite3 (with FTS5) and @parcel/watcher load');
  } catch (err) {
    return fail(
      name,
      `a native module does not load: ${(err as Error).message.split('\n')[0]}`,
      'Reinstall for this Node version and platform: npm rebuild better-sqlite3 @parcel/watcher (or npm install again).',
    );
  }
}

function defaultLoad(id: string): Promise<unknown> {
  // The bundle keeps these external (scripts/build-mcp.mjs): they load from its node_modules.
  return import(id);
}

export function checkIndex(vault: string): CheckResult {
  const name = 'index';
  const file = state(vault, 'index.sqlite');
  if (!fs.existsSync(file)) {
    return fail(
      name,
      'no index yet (.noted/index.sqlite)',
      'Start the server once (noted-mcp --notes-dir DIR): it builds the index.',
    );
  }
  let db: ReturnType<typeof openIndexReadOnly>;
  try {
    db = openIndexReadOnly(file);
  } catch (err) {
    return fail(
      name,
      `the index cannot be used: ${(err as Error).message}`,
      'Start the server: it rebuilds an index it cannot use. Or delete .noted/index.sqlite; nothing is lost.',
    );
  }
  try {
    const indexed = loadIndexedFiles(db);
    // Looks only: the format as a server would decide it (config.json, else the files).
    const walked = walkVault(vault, ENDING_OF[chooseFormat(vault, path.join(vault, '.noted'))]);
    let changed = 0;
    let added = 0;
    for (const file of walked.notes) {
      const row = indexed.get(file.name);
      if (row === undefined) added++;
      else if (row.size !== file.size || row.mtime_ms !== file.mtimeMs || row.ino !== file.ino) changed++;
      indexed.delete(file.name);
    }
    const gone = indexed.size;
    if (added + changed + gone === 0) return ok(name, `matches the files (${walked.notes.length} notes)`);
    return fail(
      name,
      `differs from the files: ${added} new, ${changed} changed, ${gone} gone since it was last updated`,
      'Start the server: it catches up on start. If a running server does not, stop it, delete .noted/index.sqlite and start it again.',
    );
  } finally {
    db.close();
  }
}

/**
 * Which kind of notes the vault holds and which is served (SPEC 17.7). A folder of both kinds is
 * told (not failed): the other kind are attachments, and the owner decides whether that is right.
 */
export function checkNoteFormats(vault: string): CheckResult {
  const name = 'note format';
  const served = chooseFormat(vault, state(vault));
  const counts = countNoteFiles(vault);
  const advice = mixedFormatAdvice(counts, served);
  if (advice !== null) return { name, status: 'info', detail: advice };
  const n = served === 'html' ? counts.html : counts.markdown;
  return ok(
    name,
    `${served === 'html' ? 'HTML (.html)' : 'Markdown (.md)'}: ${n} ${n === 1 ? 'note' : 'notes'}`,
  );
}

export function checkPolicy(vault: string): CheckResult {
  const name = 'access policy';
  const file = state(vault, POLICY_FILE_NAME);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      return ok(name, 'no policy file: agents may read and write everything');
    return fail(
      name,
      `${file} cannot be read (${(err as NodeJS.ErrnoException).code})`,
      `Fix its permissions, or delete it.`,
    );
  }
  try {
    const policy = parsePolicy(text);
    return ok(
      name,
      `parses (default ${policy.default}, ${policy.folders.length} folder rule${policy.folders.length === 1 ? '' : 's'})`,
    );
  } catch (err) {
    return fail(
      name,
      `does not parse: ${(err as Error).message}`,
      `Fix ${file} (noted-mcp ui shows the policy), or delete it. Until then every tool answers policy_error.`,
    );
  }
}

/** No operation was left half done by a server that stopped in the middle (journal/operations.ts). */
export function checkOperations(vault: string): CheckResult {
  const name = 'interrupted operations';
  const ops = interruptedOperations({ statePath: (...parts: string[]) => state(vault, ...parts) });
  if (ops.length === 0) return ok(name, 'none');
  return fail(
    name,
    ops.map(interruptedText).join('\n'),
    ops.length === 1
      ? `Run ${ops[0]?.repair} to put it back.`
      : `Run each repair command above (${ops.map((op) => op.repair).join('; ')}).`,
  );
}

/** The journal verifies (SPEC 6.2), with the user's journal key (`key`), as `journal verify` checks it. */
export function checkJournal(vault: string, key: JournalKeyState): CheckResult {
  const name = 'journal';
  const dir = state(vault, 'journal');
  if (!fs.existsSync(dir)) return ok(name, 'no journal yet (no agent has written)');
  const result = verifyJournal(dir, {
    key,
    root: fs.realpathSync(vault),
    packs: new PackIndex(packDir(dir)),
    journalDirOf: (root) => path.join(root, STATE_DIR_NAME, 'journal'),
  });
  if (result.ok && result.unverified === null) return ok(name, `verifies (${result.entries} entries)`);
  if (result.ok) {
    return fail(
      name,
      `intact, but not fully verifiable on this machine: ${result.unverified}`,
      'See "What journal verify proves" in docs/journal.md; noted-mcp journal verify says the same.',
    );
  }
  return fail(
    name,
    `does not verify: ${result.brokenAt.file} line ${result.brokenAt.line}: ${result.reason}`,
    'Run noted-mcp journal verify for the details; entries from there on may have been changed. Keep a copy of .noted/journal before anything else.',
  );
}

export function checkTokenFile(vault: string): CheckResult {
  const name = 'HTTP token file';
  const file = state(vault, 'mcp-http-token');
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch {
    return ok(name, 'none (the HTTP transport has not been used)');
  }
  if ((st.mode & 0o077) !== 0) {
    return fail(
      name,
      `${file} can be read by others (mode ${(st.mode & 0o777).toString(8)})`,
      `Make it private: chmod 600 ${file}. Then replace the token (delete the file and restart), since others could read it.`,
    );
  }
  return ok(name, 'private to its owner (mode 600)');
}

export function checkGitExclude(vault: string): CheckResult {
  const name = 'git';
  const gitDir = path.join(vault, '.git');
  let st: fs.Stats;
  try {
    st = fs.statSync(gitDir);
  } catch {
    return ok(name, 'not a git work tree');
  }
  if (!st.isDirectory()) return ok(name, 'a linked git work tree: add .noted/ to its exclude file yourself');
  let lines: string[] = [];
  try {
    lines = fs
      .readFileSync(path.join(gitDir, 'info', 'exclude'), 'utf8')
      .split(/\r?\n/)
      .map((l) => l.trim());
  } catch {
    // no exclude file
  }
  if (lines.some((l) => l === '.noted/' || l === '.noted' || l === '/.noted/')) {
    return ok(name, '.noted/ is excluded from commits (.git/info/exclude)');
  }
  return fail(
    name,
    '.noted/ is not excluded: the index, journal and HTTP token could be committed',
    `Add a line ".noted/" to ${path.join(gitDir, 'info', 'exclude')} (the server adds it when it starts).`,
  );
}

/** Where each known client keeps its MCP servers, and how to find them there. */
export function clientConfigFiles(home: string, platform: NodeJS.Platform, env: NodeJS.ProcessEnv) {
  const config =
    env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME !== '' ? env.XDG_CONFIG_HOME : path.join(home, '.config');
  const appSupport = path.join(home, 'Library', 'Application Support');
  const appData = env.APPDATA && env.APPDATA !== '' ? env.APPDATA : path.join(home, 'AppData', 'Roaming');
  const userDir = platform === 'darwin' ? appSupport : platform === 'win32' ? appData : config;
  return [
    { client: 'Claude Desktop', file: path.join(userDir, 'Claude', 'claude_desktop_config.json') },
    { client: 'Claude Code', file: path.join(home, '.claude.json') },
    { client: 'VS Code', file: path.join(userDir, 'Code', 'User', 'mcp.json') },
    { client: 'Cursor', file: path.join(home, '.cursor', 'mcp.json') },
    { client: 'Codex', file: path.join(home, '.codex', 'config.toml') },
  ];
}

/**
 * Which known clients have a server configured that runs Noted on this vault (their configuration
 * names the vault folder, or noted-mcp with no folder). Reports; never fails.
 */
export function checkClients(vault: string, files: readonly { client: string; file: string }[]): CheckResult {
  const name = 'clients';
  const found: string[] = [];
  for (const { client, file } of files) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const mentionsNoted = /noted-mcp|dist-mcp[\\/]+index\.cjs/.test(text);
    const namesVault = text.includes(vault) || text.includes(JSON.stringify(vault).slice(1, -1));
    if (mentionsNoted && namesVault) found.push(client);
  }
  if (found.length > 0)
    return { name, status: 'info', detail: `configured for this vault in ${found.join(', ')}` };
  return {
    name,
    status: 'info',
    detail:
      'no known client (Claude Desktop, Claude Code, VS Code, Cursor, Codex) is configured for this vault',
    fix: 'noted-mcp config CLIENT prints the configuration to paste; noted-mcp install claude-desktop adds it.',
  };
}
