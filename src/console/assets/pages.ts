/**
 * @module
 * The console's two HTML documents: the app shell (filled in by `/app.js`) and the sign-in page.
 * Security: neither holds inline script or style (the CSP forbids both); the only text put into them
 * is the console's own message, escaped all the same.
 */

const HEAD = `<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="stylesheet" href="/app.css">`;

export function appPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
${HEAD}
<title>Noted MCP console</title>
<script src="/app.js" defer></script>
</head>
<body>
<header class="top">
  <span class="brand">Noted MCP</span>
  <nav aria-label="Console pages">
    <ul>
      <li><a href="#/pending" data-page="pending">Pending changes <span class="badge" id="pending-badge"><span id="pending-count">0</span><span class="sr"> waiting</span></span></a></li>
      <li><a href="#/activity" data-page="activity">Agent activity</a></li>
      <li><a href="#/access" data-page="access">Access</a></li>
      <li><a href="#/connect" data-page="connect">Connect a client</a></li>
    </ul>
  </nav>
  <button type="button" id="logout" class="quiet">Sign out</button>
</header>
<p id="vault" class="vault"></p>
<p id="status" class="status" role="status" aria-live="polite"></p>
<main id="main"></main>
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
${notice}<p>Open the link that <code>noted-mcp ui</code> printed in your terminal, or sign in with the vault token
(kept in <code>.noted/mcp-http-token</code> inside your vault).</p>
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

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}
