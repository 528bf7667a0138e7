/**
 * @module
 * Typed errors as protocol errors, for the requests that are not tool calls (prompts, resources,
 * completion): there an expected outcome travels as a JSON-RPC error, not as an `isError` result.
 * The error's `data` keeps the stable `code` (SPEC 3.2), so a client can tell `not_found` from
 * `policy_error` without parsing the message.
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { isNotedError, type NotedError } from '../common/errors.js';

/** A typed error as a protocol error: the owner's broken policy is the server's problem, the rest the request's. */
export function protocolErrorOf(err: NotedError): ProtocolError {
  const code =
    err.code === 'policy_error' ? ProtocolErrorCode.InternalError : ProtocolErrorCode.InvalidParams;
  return new ProtocolError(code, err.message, { code: err.code, ...err.details });
}

/** Runs a request body: typed errors become protocol errors; anything else is a bug and propagates. */
export async function runRequest<T>(body: () => Promise<T> | T): Promise<T> {
  try {
    return await body();
  } catch (err) {
    if (isNotedError(err)) throw protocolErrorOf(err);
    throw err;
  }
}

/** An invalid request argument, said so that a model or a person can correct it. */
export function invalidParams(message: string, data: Record<string, unknown> = {}): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message, { code: 'validation_error', ...data });
}
