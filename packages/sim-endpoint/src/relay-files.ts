/**
 * The relay's edge: the request folders, the wait for a reply file, and relay.log. Everything it decides is
 * in relay.ts; the file system and the sleep are injected.
 */
import { appendFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { realSleep, type Sleep } from '@crucibleforge/core';
import { isPreflightRequest, nextRequestNumber, parseRelayReply, relayConversationText } from './relay';
import type { AnswerFn } from './types';

/** The file operations the relay needs (paths as given; the default is node:fs). */
export interface RelayFiles {
  /** The names in a folder ([] when it does not exist). */
  list(dir: string): Promise<string[]>;
  /** Creates one folder; false when it exists already. */
  createDir(dir: string): Promise<boolean>;
  /** Creates a folder and its parents when missing. */
  ensureDir(dir: string): Promise<void>;
  write(file: string, text: string): Promise<void>;
  /** A file's text, or null when it does not exist. */
  read(file: string): Promise<string | null>;
  append(file: string, text: string): Promise<void>;
}

const isCode = (error: unknown, code: string) => (error as NodeJS.ErrnoException | null)?.code === code;

export const nodeRelayFiles: RelayFiles = {
  async list(dir) {
    try {
      return await readdir(dir);
    } catch (error) {
      if (isCode(error, 'ENOENT')) return [];
      throw error;
    }
  },
  async createDir(dir) {
    try {
      await mkdir(dir);
      return true;
    } catch (error) {
      if (isCode(error, 'EEXIST')) return false;
      throw error;
    }
  },
  async ensureDir(dir) {
    await mkdir(dir, { recursive: true });
  },
  write: (file, text) => writeFile(file, text, 'utf8'),
  async read(file) {
    try {
      return await readFile(file, 'utf8');
    } catch (error) {
      if (isCode(error, 'ENOENT')) return null;
      throw error;
    }
  },
  append: (file, text) => appendFile(file, text, 'utf8'),
};

export interface RelayOptions {
  /** The folder that gets one `req-N/` folder per chat request, and `relay.log`. */
  dir: string;
  files?: RelayFiles;
  sleep?: Sleep;
  /** How often to look for `reply.md`, ms (default 1000). */
  poll_ms?: number;
  /** The time stamped on each relay.log line (default: the wall clock). */
  now?: () => Date;
}

/** The log line a relay writes for one event, appended to `DIR/relay.log`. */
export function relayLogger(options: RelayOptions): (line: string) => Promise<void> {
  const files = options.files ?? nodeRelayFiles;
  const now = options.now ?? (() => new Date());
  return (line) => files.append(join(options.dir, 'relay.log'), `${now().toISOString()} ${line}\n`);
}

/**
 * The relay as a sim answer function: the preflight gets "ready" at once; any other request is written to a new
 * `DIR/req-N/conversation.txt` (N after the highest existing one), then `DIR/req-N/reply.md` is awaited (read
 * once it is non-empty and unchanged over one poll) and parsed into the answer. A reply that cannot be read is
 * a 400 naming `req-N/reply.md` and the line. Waiting ends when the request's signal aborts.
 */
export function createRelayAnswer(options: RelayOptions): AnswerFn {
  const files = options.files ?? nodeRelayFiles;
  const sleep = options.sleep ?? realSleep;
  const pollMs = options.poll_ms ?? 1000;
  const log = relayLogger(options);
  let issued = 0;

  async function newRequestFolder(): Promise<string> {
    for (;;) {
      // `issued` keeps two requests of this relay apart; the listing keeps it after folders already there.
      issued = Math.max(issued + 1, nextRequestNumber(await files.list(options.dir)));
      const name = `req-${issued}`;
      if (await files.createDir(join(options.dir, name))) return name;
    }
  }

  async function waitForReply(file: string, signal: AbortSignal): Promise<string> {
    let previous: string | null = null;
    for (;;) {
      const text = await files.read(file);
      if (text !== null && text.trim() !== '' && text === previous) return text;
      previous = text;
      await sleep(pollMs, signal);
    }
  }

  return async (request, { signal }) => {
    if (isPreflightRequest(request)) {
      await log('preflight answered: ready');
      return { content: 'ready' };
    }
    const name = await newRequestFolder();
    await files.write(join(options.dir, name, 'conversation.txt'), relayConversationText(request));
    await log(`${name} written: ${request.messages.length} message(s), ${request.tools.length} tool(s)${request.stream ? ', streaming' : ''}`);
    let text: string;
    try {
      text = await waitForReply(join(options.dir, name, 'reply.md'), signal);
    } catch (error) {
      if (signal.aborted) await log(`${name} abandoned: the client went away or the relay closed`);
      throw error;
    }
    const reply = parseRelayReply(text);
    if (!reply.ok) {
      const message = `${name}/reply.md line ${reply.line}: ${reply.problem}`;
      await log(`${name} reply not usable: ${message}`);
      return { error: { status: 400, message } };
    }
    const { content, tool_calls } = reply.answer;
    await log(`${name} reply read: ${tool_calls.length} call(s), ${content.length} character(s) of content`);
    return reply.answer;
  };
}
