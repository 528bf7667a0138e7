/**
 * @module
 * The server's diagnostics (a watcher that stopped, a journal line cut short, an index rebuilt or its
 * build failed): written where the entry point says (stderr, unchanged) and handed to whoever listens,
 * so that each MCP connection can send them to its client as log messages too (SPEC 14.3, logging).
 * The last few are kept, so a client that connects after they happened still gets them.
 */

export type DiagnosticLevel = 'info' | 'warning' | 'error';

export interface Diagnostic {
  readonly level: DiagnosticLevel;
  readonly message: string;
  /** ISO 8601. */
  readonly at: string;
  /**
   * The vault-relative names of the notes or files the message names, so that the policy can keep it
   * from clients when one of them is hidden (access/diagnostic-names.ts).
   */
  readonly names?: readonly string[];
}

type Listener = (diagnostic: Diagnostic) => void;

/** Diagnostics kept for clients that connect later. */
const KEPT = 20;

export class Diagnostics {
  private readonly listeners = new Set<Listener>();
  private readonly recent: Diagnostic[] = [];

  /** `write` gets each diagnostic as one line (the entry point's stderr). */
  constructor(private readonly write: (line: string) => void = () => undefined) {}

  info(message: string, names?: readonly string[]): void {
    this.emit('info', message, names);
  }

  warn(message: string, names?: readonly string[]): void {
    this.emit('warning', message, names);
  }

  error(message: string, names?: readonly string[]): void {
    this.emit('error', message, names);
  }

  /** Listens from now on, after hearing the kept ones; returns how to stop. */
  subscribe(listener: Listener): () => void {
    for (const d of this.recent) listener(d);
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(level: DiagnosticLevel, message: string, names?: readonly string[]): void {
    const diagnostic: Diagnostic = {
      level,
      message,
      at: new Date().toISOString(),
      ...(names === undefined ? {} : { names }),
    };
    this.write(message);
    this.recent.push(diagnostic);
    if (this.recent.length > KEPT) this.recent.shift();
    for (const listener of this.listeners) {
      try {
        listener(diagnostic);
      } catch {
        // One listener that fails (a client that went away) must not keep the others from hearing.
      }
    }
  }
}
