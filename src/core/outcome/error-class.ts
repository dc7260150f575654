/**
 * The kind of error a failed tool call met, coarse enough that two failures of the same mistake
 * share it ("No such file or directory" and "ENOENT" are both `missing-file`) and fine enough that
 * a lesson about a missing program is not credited with a failing test. Replay, outcome feedback
 * and the breadth check compare a call's class with the class of a lesson's mistake. Pure.
 */

export const ERROR_CLASSES = [
  'missing-program',
  'missing-module',
  'missing-file',
  'permission',
  'usage',
  'syntax',
  'timeout',
  'network',
  'test-failure',
  'build-error',
  'conflict',
  'interactive',
  'other',
] as const;
export type ErrorClass = (typeof ERROR_CLASSES)[number];

/** First rule that matches wins: specific kinds before the general ones that overlap them. */
const RULES: readonly (readonly [ErrorClass, RegExp])[] = [
  [
    'missing-program',
    /command not found|is not recognized as (?:an internal or external command|the name of a cmdlet)|no such (?:command|program)|not found in PATH|executable file not found|: not found$|Python was not found|unknown command:? ['"`]?\w/im,
  ],
  [
    'missing-module',
    /ModuleNotFoundError|No module named|Cannot find module|Cannot find package|ERR_MODULE_NOT_FOUND|could not find (?:a )?(?:package|crate|gem)|unresolved import|package \S+ is not in (?:GOROOT|std)|no matching version|LoadError/i,
  ],
  ['timeout', /timed? ?out|deadline exceeded|took too long|\btimeout\b/i],
  [
    'interactive',
    /waiting for input|\(y\/n\)|\[y\/N\]|password:|press any key|is not a tty|inappropriate ioctl for device|interactive (?:prompt|mode)|hung|hang(?:s|ing)?\b/i,
  ],
  [
    'permission',
    /permission denied|EACCES|EPERM|access (?:is )?denied|operation not permitted|must be run as root|requires? (?:elevation|administrator|root)|not permitted|unauthori[sz]ed|forbidden|\b403\b|\b401\b/i,
  ],
  [
    'missing-file',
    /no such file|ENOENT|does not exist|doesn't exist|not found|cannot find (?:the )?(?:path|file)|could not (?:find|open|read)|cannot (?:open|stat|access)|file not found|not a directory|is a directory|unable to (?:find|open|read)/i,
  ],
  [
    'network',
    /could not resolve|name or service not known|connection (?:refused|reset|timed out)|ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|network is unreachable|no route to host|SSL|certificate|TLS handshake|temporary failure in name resolution|failed to connect|\b5\d\d\b (?:error|Bad Gateway|Service Unavailable)/i,
  ],
  [
    'conflict',
    /already exists|EEXIST|merge conflict|CONFLICT \(|would be overwritten|non-fast-forward|rejected .*fetch first|lock(?:ed| file)|resource busy|address already in use|EADDRINUSE|in use by another/i,
  ],
  [
    'syntax',
    /SyntaxError|syntax error|parse error|unexpected (?:token|end of|EOF|character|indent)|IndentationError|unterminated|invalid syntax|unexpected '|JSONDecodeError|YAMLException|malformed/i,
  ],
  [
    'test-failure',
    /\b\d+ (?:failed|failing)\b|AssertionError|assert(?:ion)? failed|FAILED\b|Tests? failed|expect\(|Expected:? .+(?:Received|got)|FAIL\s|test result: FAILED|failures?:\s*[1-9]/,
  ],
  [
    'build-error',
    /error TS\d+|error\[E\d+\]|cannot find symbol|undefined reference|compilation (?:failed|terminated)|build failed|error: could not compile|TypeError|NameError|AttributeError|ReferenceError|type error|undefined (?:variable|method|name)|is not defined|has no attribute|is not a function/i,
  ],
  [
    'usage',
    /usage:|unknown (?:option|flag|argument|switch|parameter)|unrecognized (?:option|argument|arguments)|invalid (?:option|argument|flag|value|choice|parameters?)|illegal option|requires? an? (?:argument|value)|missing (?:required )?(?:argument|operand|option)|too (?:many|few) arguments|no such option|not a valid|unexpected argument|expected one argument|A parameter cannot be found/i,
  ],
];

/** The class of an error text (an error gist, a tool result, a lesson's `mistake`). */
export function errorClass(text: string): ErrorClass {
  for (const [kind, pattern] of RULES) if (pattern.test(text)) return kind;
  return 'other';
}

/** The words of `text` that gave it its class (the first rule's leftmost match), if any rule matches. */
export function errorClassPhrase(text: string): string | undefined {
  for (const [, pattern] of RULES) {
    const found = pattern.exec(text);
    if (found !== null) return found[0];
  }
  return undefined;
}

/**
 * Whether a failure of class `found` is the mistake of class `expected`: the same class, or any
 * failure when the mistake's class is unknown or `other` (its words say nothing to compare).
 */
export function sameErrorClass(expected: ErrorClass | undefined, found: ErrorClass): boolean {
  return expected === undefined || expected === 'other' || expected === found;
}

/**
 * The class of the mistake a lesson is about: from its `mistake` words (capture writes the error
 * gist there), else unknown, which any failure meets.
 */
export function mistakeClass(lesson: { mistake?: string | undefined }): ErrorClass | undefined {
  const words = lesson.mistake?.trim();
  return words === undefined || words === '' ? undefined : errorClass(words);
}
