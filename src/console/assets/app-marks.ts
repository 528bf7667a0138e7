/**
 * @module
 * Browser code: hidden characters made visible (SPEC 9.4, "nothing is hidden in a character"). Bidi
 * controls, zero-width and other format characters (Unicode Cf) and the line and paragraph separators
 * are drawn as a visible mark `⟨U+202E⟩` in names and diff text, never put into the page as they are,
 * so `Invoice\u202Efdp.md` cannot read as `Invoice dm.pdf`. Each mark names the character on hover.
 * The pattern is the one of src/console/hidden-chars.ts (a test keeps them the same).
 */

export const APP_MARKS = String.raw`
var HIDDEN_CHAR = /[\p{Cf}\u2028\u2029]/gu;
var HIDDEN_NAMES = {
  'U+200B': 'zero-width space', 'U+200C': 'zero-width non-joiner', 'U+200D': 'zero-width joiner',
  'U+200E': 'left-to-right mark', 'U+200F': 'right-to-left mark', 'U+2060': 'word joiner', 'U+FEFF': 'zero-width no-break space',
  'U+202A': 'left-to-right embedding', 'U+202B': 'right-to-left embedding', 'U+202C': 'pop directional formatting',
  'U+202D': 'left-to-right override', 'U+202E': 'right-to-left override', 'U+2066': 'left-to-right isolate',
  'U+2067': 'right-to-left isolate', 'U+2068': 'first strong isolate', 'U+2069': 'pop directional isolate',
  'U+00AD': 'soft hyphen', 'U+2028': 'line separator', 'U+2029': 'paragraph separator',
};

function hiddenCode(ch) { return 'U+' + ch.codePointAt(0).toString(16).toUpperCase().padStart(4, '0'); }

function hiddenName(code) { return HIDDEN_NAMES[code] || 'invisible format character'; }

/** Appends 'text' to 'node' with every hidden character drawn as a visible mark. */
function appendMarked(node, text) {
  var last = 0;
  HIDDEN_CHAR.lastIndex = 0;
  var m;
  while ((m = HIDDEN_CHAR.exec(text)) !== null) {
    if (m.index > last) node.appendChild(document.createTextNode(text.slice(last, m.index)));
    var code = hiddenCode(m[0]);
    node.appendChild(el('span', { class: 'hidden-char', title: code + ' ' + hiddenName(code) + ' (invisible in the text)', text: '⟨' + code + '⟩' }));
    last = m.index + m[0].length;
  }
  if (last < text.length) node.appendChild(document.createTextNode(text.slice(last)));
  return node;
}

/** An element holding 'text' with its hidden characters marked. */
function marked(tag, attrs, text) { return appendMarked(el(tag, attrs), text); }

/**
 * A note's name with its hidden characters marked and a line-break chance after each "/", so a long
 * name wraps between its folders rather than inside a word.
 */
function nameNode(tag, attrs, name) {
  var node = el(tag, attrs);
  name.split('/').forEach(function (part, i, all) {
    appendMarked(node, part + (i < all.length - 1 ? '/' : ''));
    if (i < all.length - 1) node.appendChild(el('wbr'));
  });
  return node;
}

/** The warning a card shows when its change holds hidden characters ('codes' as from the server). */
function hiddenWarning(codes) {
  if (!codes || codes.length === 0) return null;
  return el('p', { class: 'flash warn hidden-warning', role: 'note' }, [
    el('strong', { text: 'Invisible characters: ' }),
    'this change holds ' + codes.map(function (c) { return c + ' (' + hiddenName(c) + ')'; }).join(', ') +
      ', which can hide text or make it read in another order. Each is shown as a mark like ⟨' + codes[0] + '⟩; check what the text really says before you approve.',
  ]);
}
`;
