/**
 * @module
 * Every readable note and attachment as an MCP resource (SPEC 9.2): `noted://note/<path>`, each path
 * segment URL-encoded; resources/list in path order with cursors; the template `noted://note/{path}`;
 * resources/read (notes as `text/markdown`, or `text/html` in an HTML vault, attachments as base64 blobs up to 5 MB).
 *
 * Why not McpServer#registerResource with a ResourceTemplate: its resources/list passes no cursor to
 * the template's list callback (a 100k-note vault would be one message), and its resources/read parses
 * the URI with `new URL`, which folds `a/../b` away before any handler could refuse it.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { ResourceNotFoundError } from '@modelcontextprotocol/server';
import type { VaultAccess } from '../access/gate.js';
import type { VaultFile } from '../access/resources.js';
import type { AgentSession } from '../access/types.js';
import { isNotedError } from '../common/errors.js';
import { indexReady } from './index-gate.js';
import { invalidParams, protocolErrorOf, runRequest } from './protocol-errors.js';
import {
  FOLDER_URI_PREFIX,
  FOLDER_URI_TEMPLATE,
  folderResource,
  VAULT_URI,
  vaultResource,
} from './vault-resources.js';

export const NOTE_URI_PREFIX = 'noted://note/';
export const NOTE_URI_TEMPLATE = 'noted://note/{path}';

/**
 * The URI of a vault file: each path segment percent-encoded.
 *
 * @example
 * noteUri('inbox/Q3 plan #1.md') // 'noted://note/inbox/Q3%20plan%20%231.md'
 */
export function noteUri(path: string): string {
  return NOTE_URI_PREFIX + path.split('/').map(encodeURIComponent).join('/');
}

/**
 * The vault-relative path a URI names, or a refusal. Each segment is percent-decoded; an encoded
 * separator (`%2F`, `%5C`) separates like `/`, so the decoded path is judged whole.
 *
 * Security: a URI that would leave the vault — a `..` or `.` segment (plain or encoded), an empty
 * segment (`//`, or an absolute path after the prefix), a NUL or control character — is refused here
 * with no file-system call; the gate then checks the path again as a name and confines it to the
 * vault through symbolic links.
 */
export function pathOfUri(uri: string): string {
  if (!uri.startsWith(NOTE_URI_PREFIX)) {
    throw invalidParams(
      `"${uri}" is not a resource of this server: vault files are noted://note/<path>, each path segment URL-encoded.`,
      { uri },
    );
  }
  const raw = uri.slice(NOTE_URI_PREFIX.length);
  if (raw === '') throw refused(uri, 'it names no file');
  if (/[?#]/.test(raw)) throw refused(uri, 'it has a query or fragment; encode "?" as %3F and "#" as %23');
  const segments: string[] = [];
  for (const part of raw.split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(part);
    } catch {
      throw refused(uri, `the segment "${part}" is not valid percent-encoding`);
    }
    segments.push(...decoded.split(/[/\\]/));
  }
  for (const segment of segments) {
    if (segment === '') throw refused(uri, 'it has an empty path segment (an absolute path, or "//")');
    if (segment === '.' || segment === '..')
      throw refused(uri, `it has a "${segment}" segment, which would leave the vault`);
    if (/[\u0000-\u001f\u007f]/.test(segment)) throw refused(uri, 'it contains a NUL or control character');
  }
  return segments.join('/');
}

function refused(uri: string, why: string) {
  return invalidParams(
    `Refused: the URI "${uri}" cannot name a file inside the vault: ${why}. Use the URIs resources/list gives.`,
    { code: 'invalid_name', uri },
  );
}

export function registerResources(
  server: McpServer,
  access: VaultAccess,
  session: AgentSession,
  indexWaitMs?: number,
): void {
  server.server.registerCapabilities({ resources: {} });

  server.server.setRequestHandler('resources/list', (request, ctx) =>
    runRequest(async () => {
      await indexReady(access, ctx, indexWaitMs);
      const cursor = request.params?.cursor;
      const page = access.listVaultFiles(session, cursor === undefined ? {} : { cursor });
      return {
        resources: page.files.map(resourceOf),
        ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
      };
    }),
  );

  server.server.setRequestHandler('resources/templates/list', () => ({
    resourceTemplates: [
      {
        uriTemplate: NOTE_URI_TEMPLATE,
        name: 'vault-file',
        title: 'A note or attachment in the vault',
        description:
          'A note (text/markdown; text/html in an HTML vault) or attachment (base64, up to 5 MB) by its vault-relative path, each segment URL-encoded, e.g. noted://note/inbox/idea.md. Paths complete.',
      },
      {
        uriTemplate: VAULT_URI,
        name: 'vault',
        title: 'The vault',
        description:
          "What get_vault_info answers (JSON): the vault's name and format, counts, your access per folder, pending changes, the journal, the index and the limits.",
        mimeType: 'application/json',
      },
      {
        uriTemplate: FOLDER_URI_TEMPLATE,
        name: 'vault-folder',
        title: 'A folder of the vault',
        description:
          'A folder (JSON): the notes directly in it and its sub-folders, by its vault-relative path, each segment URL-encoded, e.g. noted://folder/projects/alpha; noted://folder/ is the top of the vault.',
        mimeType: 'application/json',
      },
    ],
  }));

  server.server.setRequestHandler('resources/read', async (request, ctx) => {
    const uri = request.params.uri;
    // SPEC 17.6: the vault (get_vault_info's answer) and its folders, beside its files.
    const folder = uri.startsWith(FOLDER_URI_PREFIX)
      ? uri === FOLDER_URI_PREFIX
        ? ''
        : pathOfUri(NOTE_URI_PREFIX + uri.slice(FOLDER_URI_PREFIX.length))
      : undefined;
    const path = uri === VAULT_URI || folder !== undefined ? '' : pathOfUri(uri);
    try {
      await indexReady(access, ctx, indexWaitMs);
      if (uri === VAULT_URI) return vaultResource(access, session);
      if (folder !== undefined) return folderResource(access, session, uri, folder);
      const file = access.readVaultFile(session, path);
      if (file.kind === 'note') {
        return { contents: [{ uri, mimeType: file.mimeType, text: file.text }] };
      }
      return { contents: [{ uri, mimeType: file.mimeType, blob: file.bytes.toString('base64') }] };
    } catch (err) {
      // The same answer for a hidden file and a missing one (SPEC 4).
      if (isNotedError(err) && err.code === 'not_found')
        throw new ResourceNotFoundError(uri, `Resource not found: ${uri}. ${err.message}`);
      if (isNotedError(err)) throw protocolErrorOf(err);
      throw err;
    }
  });
}

function resourceOf(file: VaultFile) {
  return {
    uri: noteUri(file.path),
    name: file.path,
    ...(file.title === null ? {} : { title: file.title }),
    mimeType: file.mimeType,
    size: file.sizeBytes,
    annotations: { lastModified: file.modified },
  };
}
