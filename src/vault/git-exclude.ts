/**
 * @module
 * Keeps the server's state out of the user's commits (SPEC 1.1): when the vault is a git work tree,
 * `.noted/` goes into `.git/info/exclude`. The user's own `.gitignore` is never touched.
 */
import fs from 'node:fs';
import path from 'node:path';

export function excludeStateFromGit(root: string): void {
  const gitDir = path.join(root, '.git');
  let st: fs.Stats;
  try {
    st = fs.statSync(gitDir);
  } catch {
    return;
  }
  if (!st.isDirectory()) return; // a worktree's `.git` file points elsewhere; leave it alone
  const file = path.join(gitDir, 'info', 'exclude');
  let current = '';
  try {
    current = fs.readFileSync(file, 'utf8');
  } catch {
    // no exclude file yet
  }
  const lines = current.split(/\r?\n/).map((l) => l.trim());
  if (lines.includes('.noted/') || lines.includes('.noted') || lines.includes('/.noted/')) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sep = current === '' || current.endsWith('\n') ? '' : '\n';
  fs.appendFileSync(file, `${sep}# Noted MCP state (index, journal, trash)\n.noted/\n`);
}
