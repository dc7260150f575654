/**
 * Removes secrets and personal data from text before anything is written: provider API keys,
 * bearer and session tokens, passwords in URLs and env assignments, private keys, JWTs, cloud
 * access keys, e-mail addresses, and user names in home-directory paths. Each match becomes a
 * `[REDACTED:kind]` marker, so a reviewer sees that something was there and what it was.
 */

type Rule = {
  kind: string;
  pattern: RegExp;
  replace: (match: string, ...groups: string[]) => string;
  /**
   * Text the pattern cannot match without (a necessary condition, tested first): most text holds
   * no `@`, no `://` and no key word, and the full patterns cost a scan from every word start.
   */
  needs?: RegExp;
};

const mark = (kind: string) => `[REDACTED:${kind}]`;

const RULES: Rule[] = [
  {
    kind: 'private-key',
    needs: /PRIVATE KEY-----/,
    pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
    replace: () => mark('private-key'),
  },
  {
    kind: 'jwt',
    needs: /eyJ/,
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
    replace: () => mark('jwt'),
  },
  {
    kind: 'api-key',
    pattern:
      /\b(sk-ant-[A-Za-z0-9_-]{16,}|sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{20,}|AIza[0-9A-Za-z_-]{35}|xox[abposr]-[A-Za-z0-9-]{10,}|(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}|npm_[A-Za-z0-9]{36}|hf_[A-Za-z0-9]{30,}|gsk_[A-Za-z0-9]{40,}|xai-[A-Za-z0-9]{40,}|SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}|dop_v1_[a-f0-9]{64}|shpat_[a-fA-F0-9]{32})\b/g,
    replace: () => mark('api-key'),
  },
  {
    kind: 'cloud-key',
    pattern: /\b((?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16})\b/g,
    replace: () => mark('cloud-key'),
  },
  {
    kind: 'url-password',
    needs: /:\/\//,
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/[^\s/:@"'`]+):([^\s@/"'`]+)@/gi,
    replace: (_m, head) => `${head}:${mark('password')}@`,
  },
  {
    kind: 'bearer',
    needs: /Bearer|Basic|Token/,
    pattern: /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{12,}/g,
    replace: (_m, scheme) => `${scheme} ${mark('token')}`,
  },
  {
    kind: 'header',
    needs: /authorization|api-key|x-auth-token|cookie/i,
    pattern:
      /\b(authorization|proxy-authorization|x-api-key|api-key|x-auth-token|cookie|set-cookie)(\s*[:=]\s*)(["']?)[^\s"'\n]{6,}(?:[^\n"']*)\3/gi,
    replace: (_m, name, sep, quote) => `${name}${sep}${quote}${mark('token')}${quote}`,
  },
  {
    kind: 'assignment',
    needs:
      /secret|token|passwd|password|pwd|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credential|session|auth[_-]?key/i,
    pattern:
      /\b([A-Za-z0-9_.-]*(?:secret|token|passwd|password|pwd|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credentials?|session[_-]?(?:id|key|token)?|auth[_-]?key|client[_-]?secret)[A-Za-z0-9_]*)(\s*[=:]\s*|\s+)("[^"\n]{4,}"|'[^'\n]{4,}'|[^\s"',;)}\]]{6,})/gi,
    replace: (match, name, sep, value) =>
      /^\[REDACTED/.test(value) ||
      /^\$\{?[A-Za-z_]/.test(value) ||
      (sep.trim() === '' && !/^-/.test(name) && !/^[A-Z_]+$/.test(name))
        ? match
        : `${name}${sep}${mark('secret')}`,
  },
  {
    kind: 'password-flag',
    needs: /--(?:password|token|api-key)/,
    pattern: /(--password(?:=|\s+)|--token(?:=|\s+)|--api-key(?:=|\s+))("[^"]+"|'[^']+'|\S+)/g,
    replace: (_m, flag) => `${flag}${mark('secret')}`,
  },
  {
    kind: 'email',
    needs: /@/,
    pattern: /\b(?!git@)[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b/g,
    replace: () => mark('email'),
  },
  {
    kind: 'home',
    needs: /\/home\/|\/Users\/|:\\{1,2}Users\\/,
    pattern: /(\/home\/|\/Users\/|[A-Za-z]:\\{1,2}Users\\{1,2})([^/\\\s"'`:]+)/g,
    replace: (_m, prefix) => (prefix.startsWith('/') ? `${prefix}[user]` : `${prefix}[user]`),
  },
  {
    kind: 'project-key',
    needs: /-home-|-Users-/,
    pattern: /(^|[/\\\s])(-home-|-Users-|[A-Z]--Users-)([A-Za-z0-9_.]+)(?=-|\/|$)/g,
    replace: (_m, lead, prefix) => `${lead}${prefix}[user]`,
  },
];

export type RedactOptions = {
  /** Extra names to remove wherever they appear (the local user name). */
  names?: readonly string[];
};

export function redactText(text: string, options: RedactOptions = {}): string {
  return applyRules(text, options, true);
}

/** The rules over `text`; `prefilter: false` runs every pattern (the reference the filter must equal). */
export function applyRules(text: string, options: RedactOptions, prefilter: boolean): string {
  let out = text;
  for (const rule of RULES) {
    if (prefilter && rule.needs !== undefined && !rule.needs.test(out)) continue;
    out = out.replace(rule.pattern, rule.replace as (m: string, ...g: string[]) => string);
  }
  for (const name of options.names ?? []) {
    if (name.length < 3 || ['root', 'user', 'dev', 'runner', 'node', 'admin', 'ubuntu'].includes(name))
      continue;
    if (prefilter && !out.includes(name)) continue;
    out = out.replace(nameRegex(name), '[user]');
  }
  return out;
}

/** A name as a whole word, compiled once per name. */
const nameRegexes = new Map<string, RegExp>();
function nameRegex(name: string): RegExp {
  let regex = nameRegexes.get(name);
  if (regex === undefined) {
    regex = new RegExp(`\\b${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'g');
    nameRegexes.set(name, regex);
  }
  return regex;
}

/** Redacts every string inside a JSON-like value. */
export function redactDeep<T>(value: T, options: RedactOptions = {}): T {
  if (typeof value === 'string') return redactText(value, options) as T;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, options)) as T;
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = redactDeep(item, options);
    return out as T;
  }
  return value;
}
