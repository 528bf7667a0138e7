/**
 * @module
 * list_links through the gate (SPEC 17.5): the vault's unresolved links or its orphans, as this agent
 * may see the vault, optionally within a folder, in pages.
 */
import { positionOf } from '../../common/cursor.js';
import { byCodeUnits, type Keyset, type Page, pageOf } from '../../common/paging.js';
import { unobservedWork, type Work } from '../../common/work.js';
import { type UnresolvedLink, vaultLinks } from '../../index/queries/vault-links.js';
import { covers, folderKey } from '../../policy/folder-key.js';
import { normalizeFolderName } from '../../vault/names.js';
import type { AccessContext } from '../context.js';
import type { Rules } from '../rules/rules.js';
import { visibleOption } from '../rules/scope.js';

export type LinkListKind = 'unresolved' | 'orphans';

export interface LinkListQuery {
  readonly kind: LinkListKind;
  readonly folder?: string;
  readonly cursor?: string;
  readonly limit?: number;
}

export const DEFAULT_LINK_LIST_LIMIT = 100;

export type LinkListPage =
  | ({ readonly kind: 'unresolved' } & Page<UnresolvedLink>)
  | ({ readonly kind: 'orphans' } & Page<{ readonly name: string }>);

interface LinkPosition {
  readonly s: string;
  readonly l: number;
  readonly r: string;
}

const UNRESOLVED_ORDER: Keyset<UnresolvedLink, LinkPosition> = {
  kind: 'links-unresolved',
  position: (u) => ({ s: u.source, l: u.line, r: u.raw }),
  isPosition: positionOf<LinkPosition>({ s: 'string', l: 'number', r: 'string' }),
  compare: (u, p) => byCodeUnits(u.source, p.s) || u.line - p.l || byCodeUnits(u.raw, p.r),
};

const ORPHAN_ORDER: Keyset<{ name: string }, { n: string }> = {
  kind: 'links-orphans',
  position: (o) => ({ n: o.name }),
  isPosition: positionOf<{ n: string }>({ n: 'string' }),
  compare: (o, p) => byCodeUnits(o.name, p.n),
};

export async function listLinks(
  ctx: AccessContext,
  rules: Rules,
  query: LinkListQuery,
  work: Work = unobservedWork(),
): Promise<LinkListPage> {
  const folder = query.folder === undefined ? '' : normalizeFolderName(query.folder);
  const key = folderKey(folder);
  const inFolder = (name: string) => folder === '' || covers(key, folderKey(name));
  const request = { limit: query.limit ?? DEFAULT_LINK_LIST_LIMIT, cursor: query.cursor };
  ctx.index.refresh();
  const db = ctx.index.db;
  const { unresolved, linked, notes } = await vaultLinks(db, visibleOption(rules), work);
  if (query.kind === 'unresolved') {
    const sorted = unresolved
      .filter((u) => inFolder(u.source))
      .sort((a, b) => UNRESOLVED_ORDER.compare(a, UNRESOLVED_ORDER.position(b)));
    return { kind: 'unresolved', ...pageOf(sorted, request, UNRESOLVED_ORDER) };
  }
  const orphans = notes
    .filter((name) => !linked.has(name) && inFolder(name))
    .sort(byCodeUnits)
    .map((name) => ({ name }));
  return { kind: 'orphans', ...pageOf(orphans, request, ORPHAN_ORDER) };
}
