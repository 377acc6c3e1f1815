import type { IncomingMessage, ServerResponse } from 'node:http';

/** A request that cannot be served: the status and a message safe to show. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** Headers every response carries: nothing cached, sniffed, framed, referred or loaded from elsewhere. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

/** Text that leaves the server passes through this (API keys are replaced). */
export type Scrub = (text: string) => string;

export function sendText(res: ServerResponse, status: number, type: string, body: string, scrub: Scrub, headers: Record<string, string> = {}): void {
  const text = scrub(body);
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type, 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

export function sendJson(res: ServerResponse, status: number, value: unknown, scrub: Scrub, headers: Record<string, string> = {}): void {
  sendText(res, status, 'application/json; charset=utf-8', JSON.stringify(value), scrub, headers);
}

/** Sends already serialised JSON and resolves when it has left (so a caller bounding heavy replies holds its slot until then). */
export function sendJsonText(res: ServerResponse, status: number, json: string, scrub: Scrub): Promise<void> {
  return new Promise((resolve) => {
    res.once('close', () => resolve());
    sendText(res, status, 'application/json; charset=utf-8', json, scrub);
  });
}

export function sendError(res: ServerResponse, error: HttpError, scrub: Scrub): void {
  sendJson(res, error.status, { error: error.message, status: error.status }, scrub, error.headers);
}

/** The request body as JSON; refuses non-JSON content types (so no HTML form can post here) and big bodies. */
export async function readJson(req: IncomingMessage, maxBytes = 1 << 20): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw new HttpError(415, 'send the request body as application/json');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new HttpError(413, `request body over ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, 'the request body is not valid JSON');
  }
}
