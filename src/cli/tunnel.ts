/**
 * @module
 * `--tunnel` (SPEC 15.3): a Cloudflare quick tunnel in front of the HTTP server. Starts
 * `cloudflared tunnel --url http://HOST:PORT` from the PATH, waits for the public URL it reports,
 * and stops it with the server. The server only ever listens on loopback; cloudflared connects
 * to it there and forwards requests with `Host:` the public name, which the caller then accepts.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The quick-tunnel URL cloudflared prints in a box on stderr. Its other URLs are not it: the terms
 * and docs, and in an error the API it asked (`https://api.trycloudflare.com/tunnel`).
 */
const QUICK_TUNNEL_URL = /https:\/\/((?!api\.)[a-z0-9-]+\.trycloudflare\.com)(?=\s|\||$)/i;
/** How long cloudflared may take to report its URL (it asks Cloudflare's API for a name). */
export const TUNNEL_START_MS = 60_000;
const STOP_GRACE_MS = 5_000;
/** Lines of cloudflared's output kept to explain a failure. */
const TAIL_LINES = 12;

export class TunnelError extends Error {}

export interface Tunnel {
  /** `https://NAME.trycloudflare.com` */
  readonly url: string;
  readonly hostname: string;
  /** Resolves when cloudflared exits, with its code or signal. */
  readonly exited: Promise<string>;
  stop(): Promise<void>;
}

/** An executable named `name` in the directories of `$PATH`, or undefined. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, name);
    try {
      if (fs.statSync(candidate).isFile()) {
        fs.accessSync(candidate, fs.constants.X_OK);
        return candidate;
      }
    } catch {
      // not here
    }
  }
  return undefined;
}

export async function startTunnel(options: {
  readonly localUrl: string;
  readonly env: NodeJS.ProcessEnv;
  readonly startMs?: number;
}): Promise<Tunnel> {
  const cloudflared = findOnPath('cloudflared', options.env);
  if (cloudflared === undefined) {
    throw new TunnelError(
      'cloudflared is not on the PATH. Install it (https://developers.cloudflare.com/cloudflare-one/connections/connect-networks/downloads/), or leave out --tunnel and put your own reverse proxy in front with --allowed-host NAME.',
    );
  }
  const child = spawn(cloudflared, ['tunnel', '--url', options.localUrl], {
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Should this process end without stopping it (a crash), the tunnel must not outlive it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => {
      process.off('exit', killOnExit);
      resolve(signal ?? `code ${code}`);
    });
    child.once('error', (err) => {
      process.off('exit', killOnExit);
      resolve(err.message);
    });
  });
  const tail: string[] = [];
  const hostname = await new Promise<string>((resolve, reject) => {
    let pending = '';
    const onData = (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        tail.push(line);
        if (tail.length > TAIL_LINES) tail.shift();
        const m = QUICK_TUNNEL_URL.exec(line);
        if (m) {
          clearTimeout(timer);
          resolve((m[1] as string).toLowerCase());
        }
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    const timer = setTimeout(() => {
      reject(
        new TunnelError(
          `cloudflared reported no public URL within ${Math.round((options.startMs ?? TUNNEL_START_MS) / 1000)} s.${lastLines(tail)}`,
        ),
      );
    }, options.startMs ?? TUNNEL_START_MS);
    void exited.then((how) => {
      clearTimeout(timer);
      reject(
        new TunnelError(`cloudflared stopped (${how}) before reporting a public URL.${lastLines(tail)}`),
      );
    });
  }).catch(async (err: unknown) => {
    await stop(child, exited);
    throw err;
  });
  return { url: `https://${hostname}`, hostname, exited, stop: () => stop(child, exited) };
}

/** SIGTERM, then SIGKILL if it has not exited after a grace period. */
async function stop(child: ChildProcess, exited: Promise<string>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

function lastLines(tail: readonly string[]): string {
  const text = tail.filter((l) => l.trim() !== '').join('\n  ');
  return text === '' ? '' : ` Its last output:\n  ${text}`;
}
