/**
 * A download that "worked" but saved an error page: `curl -L URL -o icon.svg` exits 0 on a 404
 * unless told `-f`, and the file holds "File not found" or a web page. It shows only when the
 * agent looks into the file (Read, `cat`, `head`, `file`). That look turns the download into the
 * failure it was; the next download of the same file is its fix.
 */
import { commandOf, targetPath } from './call-target.js';
import { isShellTool } from './classify-result.js';
import type { Attempt } from './episode.js';
import type { ToolCall, ToolResult } from './events.js';
import { segments, stripQuotes, writtenFiles } from './shell-command.js';

/** A download the detector remembers until the agent looks into its file. */
export type Download = { file: string; attempt: Attempt; index: number };

/** Looks farther than this many events from their download say nothing about it. */
export const DOWNLOAD_WINDOW = 12;

const DOWNLOADERS = new Set(['curl', 'wget', 'invoke-webrequest', 'iwr']);
const DOWNLOADER_NAME = /curl|wget|invoke-webrequest|iwr/i;

/** The file name a URL would be saved under (`-O`, wget's default): its last path part. */
function remoteName(url: string | undefined): string | undefined {
  const path = url
    ?.replace(/[?#].*$/, '')
    .split('/')
    .pop();
  return path !== undefined && path.includes('.') ? path : undefined;
}

/** The file a download command writes (`curl -o f`, `curl -O URL`, `wget -O f`, `-OutFile f`, `> f`). */
export function downloadedFile(call: ToolCall): string | undefined {
  if (!isShellTool(call.tool)) return undefined;
  const command = commandOf(call);
  // Every successful shell call comes through here: most name no downloader at all.
  if (command === undefined || !DOWNLOADER_NAME.test(command)) return undefined;
  for (const segment of segments(command)) {
    const words = segment.map(stripQuotes);
    const at = words.findIndex((word) => DOWNLOADERS.has(word.toLowerCase()));
    if (at < 0) continue;
    const args = words.slice(at + 1);
    const url = args.find((word) => /^https?:\/\//i.test(word));
    const valueOf = (flags: RegExp) => {
      const i = args.findIndex((word) => flags.test(word));
      return i >= 0 ? args[i + 1] : undefined;
    };
    const program = (words[at] ?? '').toLowerCase();
    if (program === 'wget') return valueOf(/^(-O|--output-document)$/) ?? remoteName(url);
    if (program !== 'curl') return valueOf(/^-outfile$/i);
    // Short flags may come bundled (`-sLo file`, `-LO`).
    const named = valueOf(/^(-[A-Za-z]*o|--output)$/);
    if (named !== undefined) return named;
    if (args.some((word) => /^-[A-Za-z]*O[A-Za-z]*$/.test(word) || word === '--remote-name'))
      return remoteName(url);
  }
  // `curl URL > file`: the file the output went to.
  return /\b(curl|wget)\b/.test(command) ? writtenFiles(command)[0] : undefined;
}

/** Programs that show a file's content or kind. */
const VIEWERS = new Set(['cat', 'head', 'tail', 'file', 'type', 'get-content', 'gc', 'xxd', 'less', 'more']);

/** The file a call looks into: a file tool's path, or a viewer's operand. */
export function viewedFile(call: ToolCall): string | undefined {
  if (!isShellTool(call.tool)) return targetPath(call);
  const command = commandOf(call);
  if (command === undefined) return undefined;
  for (const segment of segments(command)) {
    const words = segment.map(stripQuotes);
    if (!VIEWERS.has((words[0] ?? '').toLowerCase())) continue;
    const operand = words.slice(1).find((word) => !word.startsWith('-') && !/^\d+$/.test(word));
    if (operand !== undefined) return operand;
  }
  return undefined;
}

/** Whether a file tool's or viewer's path and a download's file are the same file. */
export function sameFile(viewed: string, downloaded: string): boolean {
  const norm = (path: string) => path.replace(/\\/g, '/').replace(/^~(?=\/)|^\.(?=\/)/, '');
  const [a, b] = [norm(viewed), norm(downloaded)];
  if (a === b) return true;
  const tail = b.includes('/') ? b : `/${b}`;
  return (b.includes('/') ? tail.length >= 6 : b.length >= 5) && a.endsWith(tail);
}

/** What a web server says instead of the file. */
const ERROR_PAGE =
  /(^|\n)\s*(<!doctype html|<html[\s>])|\b404\b|\bnot found\b|\baccess ?denied\b|<Error>|\bforbidden\b|HTML document/i;

/** The error page a look into a downloaded file found, as its telling line, or undefined. */
export function errorPageLine(file: string, result: ToolResult): string | undefined {
  if (!result.ok || /\.html?$/i.test(file)) return undefined;
  const head = result.text.slice(0, 600);
  if (!ERROR_PAGE.test(head)) return undefined;
  const line = head.split('\n').find((text) => ERROR_PAGE.test(text)) ?? head.split('\n')[0] ?? '';
  return line.trim().slice(0, 160);
}

/** How the failure of such a download reads (its error text starts so). */
export const SAVED_ERROR_PAGE = /^The download saved an error page/;

/** What the download's failure says (it starts as SAVED_ERROR_PAGE reads). */
export function savedErrorText(download: Download, found: string): string {
  return `The download saved an error page, not ${download.file}: ${found}`;
}

/**
 * A `curl` download without `-f` that saved an error page: the flag is the lesson (the next URL
 * was only this once's fix).
 */
export function curlWithoutFail(command: string | undefined, errorText: string): boolean {
  return (
    command !== undefined &&
    SAVED_ERROR_PAGE.test(errorText) &&
    /\bcurl\b/.test(command) &&
    !/\s(--fail|-[A-Za-z]*f[A-Za-z]*)(?=\s|$)/.test(command)
  );
}

/** The host of the first URL a command names (`upload.wikimedia.org`), if any. */
export function urlHost(command: string | undefined): string | undefined {
  return command === undefined ? undefined : /\bhttps?:\/\/([\w.-]+)/i.exec(command)?.[1]?.toLowerCase();
}
