import fs from 'node:fs';
import path from 'node:path';
import { Parser } from 'htmlparser2';
import { afterEach, describe, expect, it } from 'vitest';
import { convertVault } from '../../src/access/convert.js';
import { Journal } from '../../src/journal/journal.js';
import { Vault } from '../../src/vault/vault.js';
import { makeVault, openTestVault, readBytes, type TestVault, testJournalKey } from '../helpers/vault.js';

/**
 * SPEC 11.3: whatever a client sends, an HTML note holds no script, style, event handler,
 * `javascript:`/`data:` URL, iframe, object or form. The inputs are the OWASP XSS Filter Evasion
 * Cheat Sheet's vectors (test/fixtures/xss/SOURCE.md), sent as the content of create_note and
 * update_note (as they are, so Markdown or HTML as the server reads them, and wrapped in a <div> so
 * that they surely go through the HTML path), appended, edited in, and converted from Markdown notes.
 */
const VECTORS: string[] = JSON.parse(
  fs.readFileSync(path.join(__dirname, '../fixtures/xss/owasp-xss-filter-evasion.json'), 'utf8'),
);

/** Elements a stored note may never hold, whatever its sanitizer allows. */
// biome-ignore format: a word list reads best packed
const FORBIDDEN = new Set([
  'script', 'style', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'form', 'button', 'select',
  'textarea', 'meta', 'link', 'base', 'svg', 'math', 'xml', 'xss', 'layer', 'ilayer', 'bgsound', 'isindex', 'xmp',
]);
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'background',
  'lowsrc',
  'dynsrc',
  'xlink:href',
  'cite',
  'poster',
  'data',
]);

/**
 * An oracle written independently of the sanitizer's configuration: what a browser could run in the
 * stored HTML. Every element, attribute and URL is looked at as a browser's parser sees it.
 */
function dangers(html: string): string[] {
  const found: string[] = [];
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (FORBIDDEN.has(name)) found.push(`<${name}>`);
        if (name === 'input' && attribs.type?.toLowerCase() !== 'checkbox')
          found.push('<input> that is not a checkbox');
        for (const [attribute, value] of Object.entries(attribs)) {
          if (attribute.startsWith('on')) found.push(`${attribute}=`);
          if (attribute === 'style') found.push('style=');
          if (URL_ATTRIBUTES.has(attribute)) {
            const url = value.replace(/[\u0000-\u0020\u007f-\u00a0]/g, '').toLowerCase();
            if (/^(javascript|vbscript|data|livescript|mocha):/.test(url))
              found.push(`${attribute}=${url.slice(0, 20)}`);
          }
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return found;
}

let vault: TestVault | undefined;
afterEach(async () => {
  await vault?.close();
  vault = undefined;
});

const HTML_VAULT = { '.noted/config.json': '{"format":"html"}', 'base.html': '<p>base</p>\n' };

describe('the sanitizer against the OWASP XSS filter evasion vectors (SPEC 11.3)', () => {
  it('the fixture holds the cheat sheet’s vectors, and the oracle sees their danger', () => {
    expect(VECTORS.length).toBe(101);
    // Guards the oracle: most vectors are dangerous as written.
    expect(VECTORS.filter((v) => dangers(v).length > 0).length).toBeGreaterThan(30);
  });

  it('create_note, as sent and wrapped in a <div>: nothing dangerous is stored', async () => {
    vault = await openTestVault(HTML_VAULT);
    const v = vault;
    const stored: string[] = [];
    for (const [i, vector] of VECTORS.entries()) {
      for (const [form, content] of [
        ['raw', vector],
        ['div', `<div>${vector}</div>`],
      ] as const) {
        const r = await v.call('create_note', { name: `xss/${form}-${i}`, content });
        expect(r.isError, `vector ${i} (${form}): ${JSON.stringify(r.structured)}`).toBe(false);
        const text = readBytes(v.dir, `xss/${form}-${i}.html`)?.toString() ?? '';
        expect(dangers(text), `vector ${i} (${form}) stored as ${text}`).toEqual([]);
        stored.push(text);
      }
    }
    expect(stored).toHaveLength(VECTORS.length * 2);
  });

  it('update_note (overwrite and append) and edit_note replace: nothing dangerous is stored', async () => {
    vault = await openTestVault(HTML_VAULT);
    const v = vault;
    let refused = 0;
    for (const [i, vector] of VECTORS.entries()) {
      const overwrite = await v.call('update_note', { name: 'base', content: `<div>${vector}</div>` });
      expect(overwrite.isError, `vector ${i}`).toBe(false);
      expect(dangers(readBytes(v.dir, 'base.html')?.toString() ?? ''), `vector ${i} overwrite`).toEqual([]);

      const before = readBytes(v.dir, 'base.html')?.toString() ?? '';
      const append = await v.call('update_note', { name: 'base', content: vector, append: true });
      expect(append.isError, `vector ${i}`).toBe(false);
      const after = readBytes(v.dir, 'base.html')?.toString() ?? '';
      expect(after.startsWith(before), 'append keeps the stored text').toBe(true);
      expect(dangers(after), `vector ${i} append`).toEqual([]);

      // An edit of the stored HTML is taken as written or refused whole, never stored with its danger.
      await v.call('update_note', { name: 'base', content: '<p>safe MARK text</p>' });
      const etag = (await v.call('read_note', { name: 'base' })).structured.etag;
      const edit = await v.call('edit_note', {
        name: 'base',
        operation: 'replace',
        old_text: 'MARK',
        new_text: vector,
        expected_etag: etag,
      });
      const edited = readBytes(v.dir, 'base.html')?.toString() ?? '';
      if (edit.isError) {
        refused++;
        expect(edit.structured.code).toBe('validation_error');
        expect(edited).toBe('<p>safe MARK text</p>');
      }
      expect(dangers(edited), `vector ${i} edit gave ${edited}`).toEqual([]);
    }
    expect(refused).toBeGreaterThan(50);
  });

  it('convert --to html: a Markdown vault holding every vector becomes HTML notes with nothing dangerous', async () => {
    const files: Record<string, string> = {};
    for (const [i, vector] of VECTORS.entries()) files[`v${i}.md`] = `# Vector ${i}\n\n${vector}\n`;
    const { base, dir } = makeVault(files);
    try {
      const v = Vault.open(dir);
      const report = await convertVault(v, new Journal(v, { now: () => new Date(), key: testJournalKey() }), {
        to: 'html',
        dryRun: false,
        session: 'test',
      });
      expect(report.converted).toHaveLength(VECTORS.length);
      for (const [i] of VECTORS.entries()) {
        const text = fs.readFileSync(path.join(dir, `v${i}.html`), 'utf8');
        expect(dangers(text), `vector ${i} converted to ${text}`).toEqual([]);
      }
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });
});
