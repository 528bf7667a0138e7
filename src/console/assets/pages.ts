/**
 * @module
 * The console's HTML documents: the app shell (filled in by `/app.js`), the sign-in page and the
 * page for a refused or failed request. The shell already shows the navigation, the pending count
 * and a loading line, so the first paint is never blank.
 * Security: none holds inline script or style (the CSP forbids both); every text put into them is
 * escaped.
 */

const HEAD = `<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<link rel="stylesheet" href="/app.css">`;

const NEW_LINK =
  'For a new sign-in link, press Enter in the terminal where <code>noted-mcp ui</code> runs, or run <code>noted-mcp ui --link</code> in another terminal.';

export function appPage(pending: number): string {
  const count = String(Math.max(0, Math.trunc(pending)));
  return `<!doctype html>
<html lang="en">
<head>
${HEAD}
<title>Noted MCP console</title>
<script src="/app.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to the content</a>
<header class="top">
  <span class="brand">Noted MCP</span>
  <nav aria-label="Console pages">
    <ul>
      <li><a href="#/pending" data-page="pending">Pending changes <span class="${pending > 0 ? 'badge' : 'badge none'}" id="pending-badge"><span id="pending-count">${count}</span><span class="sr"> waiting</span></span></a></li>
      <li><a href="#/activity" data-page="activity">Agent activity</a></li>
      <li><a href="#/access" data-page="access">Access</a></li>
      <li><a href="#/connect" data-page="connect">Connect a client</a></li>
    </ul>
  </nav>
  <button type="button" id="logout" class="quiet">Sign out</button>
</header>
<div id="offline" class="offline" role="alert" hidden></div>
<p id="vault" class="vault"></p>
<p id="status" class="status" role="status" aria-live="polite"></p>
<main id="main" tabindex="-1">
<p class="loading">Loading the console…</p>
<noscript><p class="flash error">The console needs JavaScript. Allow scripts from this address (they are served by noted-mcp itself, nothing comes from elsewhere).</p></noscript>
</main>
</body>
</html>
`;
}

export function loginPage(message: string | null): string {
  const notice = message === null ? '' : `<p class="flash error" role="alert">${escapeHtml(message)}</p>\n`;
  return `<!doctype html>
<html lang="en">
<head>
${HEAD}
<title>Sign in — Noted MCP console</title>
</head>
<body>
<main id="main" class="login">
<h1>Noted MCP console</h1>
${notice}<p>Open the sign-in link that <code>noted-mcp ui</code> printed in its terminal. ${NEW_LINK}</p>
<p>Or sign in with the vault token, kept in <code>.noted/mcp-http-token</code> inside your vault.</p>
<form method="post" action="/login">
  <label for="token">Vault token</label>
  <input id="token" name="token" type="password" autocomplete="current-password" required>
  <button type="submit">Sign in</button>
</form>
</main>
</body>
</html>
`;
}

/** A page for a request the console refused or could not answer; `lines` are plain text. */
export function errorPage(title: string, lines: readonly string[]): string {
  const body = lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
${HEAD}
<title>${escapeHtml(title)} — Noted MCP console</title>
</head>
<body>
<main id="main" class="login">
<h1>${escapeHtml(title)}</h1>
${body}
<p><a href="/">Go to the console</a></p>
</main>
</body>
</html>
`;
}

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}
