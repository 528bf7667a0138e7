/**
 * @module
 * Stand-ins for programs a person has and this machine may not (`cloudflared`, `claude`): small
 * scripts put first on the PATH that record how they were called and answer as the real ones do.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The public name the stand-in cloudflared reports. */
export const TUNNEL_HOST = 'seasonal-deck-organisms-sf.trycloudflare.com';

/** What cloudflared prints on stderr for a quick tunnel: its URL in a box, among other URLs. */
export const CLOUDFLARED_OUTPUT = `2026-12-03T08:00:00Z INF Thank you for trying Cloudflare Tunnel. Doing so, without a Cloudflare account, is a quick way to experiment and try it out. However, be aware that these account-less Tunnels have no uptime guarantee, are subject to the Cloudflare Online Services Terms of Use (https://www.cloudflare.com/website-terms/), and Cloudflare reserves the right to investigate your use of Tunnels for violations of such terms. If you intend to use Tunnels in production you should use a pre-created named tunnel by following: https://developers.cloudflare.com/cloudflare-one/connections/connect-networks/do-more-with-tunnels/trycloudflare
2026-12-03T08:00:00Z INF Requesting new quick Tunnel on trycloudflare.com...
2026-12-03T08:00:01Z INF +--------------------------------------------------------------------------------------------+
2026-12-03T08:00:01Z INF |  Your quick Tunnel has been created! Visit it at (it may take some time to be reachable):  |
2026-12-03T08:00:01Z INF |  https://${TUNNEL_HOST}                                      |
2026-12-03T08:00:01Z INF +--------------------------------------------------------------------------------------------+
2026-12-03T08:00:01Z INF Version 2026.11.0`;

/**
 * Writes `bin/NAME`: it records its pid to `record.pid` and its arguments (one a line) to
 * `record.args`, prints `stderr`, then waits until stopped (as cloudflared does) or exits with
 * `after` (a code).
 */
export function standIn(
  bin: string,
  name: string,
  options: { stderr?: string; stdout?: string; after: 'wait' | number },
): { record: string } {
  fs.mkdirSync(bin, { recursive: true });
  const record = path.join(bin, `${name}.record`);
  fs.writeFileSync(
    path.join(bin, name),
    [
      '#!/bin/sh',
      `echo "$$" > '${record}.pid'`,
      `printf '%s\\n' "$@" > '${record}.args'`,
      ...(options.stdout ? [`cat <<'OUT'\n${options.stdout}\nOUT`] : []),
      ...(options.stderr ? [`cat >&2 <<'OUT'\n${options.stderr}\nOUT`] : []),
      options.after === 'wait' ? 'exec sleep 600' : `exit ${options.after}`,
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  return { record };
}

/** The arguments the stand-in was last called with. */
export function recordedArgs(record: string): string[] {
  return fs.readFileSync(`${record}.args`, 'utf8').split('\n').slice(0, -1);
}
