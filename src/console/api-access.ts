/**
 * @module
 * The access page (SPEC 4): every folder of the vault with the access agents have there, which rule
 * sets it, and edits to the rules, written to `.noted/mcp-policy.yaml` after `parsePolicy` accepts
 * them, or the file's text as typed. An invalid file on disk is shown with its text and error; the
 * page may then save the text fixed, or start from what could be read of it with everything else
 * hidden (policy/salvage.ts), and never opens what the file keeps closed.
 */
import { ACCESS_MEANING, accessFor } from '../policy/access.js';
import { folderKey } from '../policy/folder-key.js';
import { ACCESS_LEVELS, type Access, type Policy } from '../policy/policy.js';
import { type ApiContext, field, type Route } from './context.js';
import { listFolders } from './folders.js';
import { ConsoleError } from './http-util.js';
import {
  type PolicyState,
  policyEditOf,
  readPolicyState,
  renderPolicy,
  salvageOf,
  writePolicy,
  writePolicyText,
} from './policy-file.js';

interface FolderNode {
  readonly folder: string;
  /** What agents get here; null while the policy file cannot be used (everything is closed). */
  readonly access: Access | null;
  /** The rule naming exactly this folder, if any. */
  readonly rule: Access | null;
  readonly onDisk: boolean;
}

function tree(root: string, policy: Policy | null, usable: boolean) {
  const { folders, truncated } = listFolders(root);
  const rules = new Map((policy?.folders ?? []).map((r) => [r.key, r]));
  const nodes = new Map<string, FolderNode>();
  for (const folder of folders) {
    const key = folderKey(folder);
    nodes.set(key, {
      folder,
      access: usable ? accessFor(policy, folder) : null,
      rule: rules.get(key)?.access ?? null,
      onDisk: true,
    });
  }
  for (const [key, rule] of rules) {
    if (nodes.has(key)) continue;
    nodes.set(key, {
      folder: rule.folder,
      access: accessFor(policy, rule.folder),
      rule: rule.access,
      onDisk: false,
    });
  }
  const ordered = [...nodes.entries()].sort(([a], [b]) => compareSegments(a, b)).map(([, node]) => node);
  return { folders: ordered, truncated };
}

function view(ctx: ApiContext, state: PolicyState) {
  const usable = state.error === null;
  return {
    file: {
      exists: state.text !== null || state.error !== null,
      text: state.text,
      error: state.error,
      errorLine: state.errorLine,
    },
    etag: state.etag,
    levels: ACCESS_LEVELS,
    meaning: ACCESS_MEANING,
    /** Null while the file cannot be used: agents get nothing anywhere then. */
    default: usable ? (state.policy?.default ?? 'read-write') : null,
    /** What the page may start from while the file cannot be used (everything not understood hidden). */
    salvage: usable ? null : salvageOf(state),
    ...tree(ctx.vault.root, state.policy, usable),
  };
}

function compareSegments(a: string, b: string): number {
  const as = a.split('/');
  const bs = b.split('/');
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    if (as[i] !== bs[i]) return (as[i] as string) < (bs[i] as string) ? -1 : 1;
  }
  return as.length - bs.length;
}

export const ACCESS_ROUTES: readonly Route[] = [
  { method: 'GET', path: 'access', handle: (ctx) => view(ctx, readPolicyState(ctx.vault)) },
  {
    // The text "Save policy" would write, beside the file's text now: the page shows the difference
    // before the owner saves (nothing is written here).
    method: 'POST',
    path: 'access/preview',
    handle: (ctx, { body }) => {
      const { edit } = policyEditOf(body);
      return { before: readPolicyState(ctx.vault).text ?? '', after: renderPolicy(edit) };
    },
  },
  {
    method: 'PUT',
    path: 'access',
    handle: (ctx, { body }) => {
      const { etag, edit } = policyEditOf(body);
      return view(ctx, writePolicy(ctx.vault, etag, edit));
    },
  },
  {
    method: 'PUT',
    path: 'access/text',
    handle: (ctx, { body }) => {
      const etag = field(body, 'etag');
      const text = field(body, 'text');
      if (typeof etag !== 'string' || typeof text !== 'string') {
        throw new ConsoleError(
          400,
          'validation_error',
          'Send "etag" (from the last read of the policy) and "text".',
        );
      }
      return view(ctx, writePolicyText(ctx.vault, etag, text));
    },
  },
];
