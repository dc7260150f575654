/**
 * Where a JSON text first goes wrong, as a 1-based line and column. `JSON.parse` says what is
 * wrong but, depending on the Node version, not always where; a person fixing a settings file by
 * hand needs the line.
 */

export type JsonErrorLocation = { line: number; column: number; message: string };

class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

function scan(text: string): void {
  let i = 0;
  const fail = (message: string): never => {
    throw new JsonSyntaxError(message, i);
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i += 1;
  };
  const describe = () => (i >= text.length ? 'the end of the file' : `"${text[i]}"`);
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(`unexpected ${describe()}`);
  };
  const string = () => {
    i += 1;
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      const char = text[i]!;
      if (char === '"') {
        i += 1;
        return;
      }
      if (char < ' ') fail('control character in a string');
      if (char === '\\') {
        const next = text[i + 1];
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('bad \\u escape');
          i += 6;
        } else if (next !== undefined && '"\\/bfnrt'.includes(next)) i += 2;
        else fail('bad escape in a string');
      } else i += 1;
    }
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!match) fail(`unexpected ${describe()}`);
    i += match![0].length;
  };
  const value = (): void => {
    ws();
    const char = text[i];
    if (char === '{') {
      i += 1;
      ws();
      if (text[i] === '}') {
        i += 1;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(`expected a property name in double quotes, found ${describe()}`);
        string();
        ws();
        if (text[i] !== ':') fail(`expected ":" after a property name, found ${describe()}`);
        i += 1;
        value();
        ws();
        if (text[i] === ',') {
          i += 1;
          continue;
        }
        if (text[i] === '}') {
          i += 1;
          return;
        }
        fail(`expected "," or "}" after a property value, found ${describe()}`);
      }
    }
    if (char === '[') {
      i += 1;
      ws();
      if (text[i] === ']') {
        i += 1;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') {
          i += 1;
          continue;
        }
        if (text[i] === ']') {
          i += 1;
          return;
        }
        fail(`expected "," or "]" after an array element, found ${describe()}`);
      }
    }
    if (char === '"') return string();
    if (char === 't') return literal('true');
    if (char === 'f') return literal('false');
    if (char === 'n') return literal('null');
    if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) return number();
    fail(`expected a value, found ${describe()}`);
  };
  if (text.charCodeAt(0) === 0xfeff) i = 1;
  value();
  ws();
  if (i < text.length) fail(`unexpected ${describe()} after the end of the JSON value`);
}

/** The first syntax error in `text`, or undefined when it is valid JSON. */
export function locateJsonError(text: string): JsonErrorLocation | undefined {
  try {
    scan(text);
    return undefined;
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    const before = text.slice(0, error.offset);
    const line = before.split('\n').length;
    const column = error.offset - before.lastIndexOf('\n');
    return { line, column, message: error.message };
  }
}
