// A scripted embedding server on 127.0.0.1 for tests, `npm run eval` and `npm run bench`: no real
// model can be fetched here, so it stands in for one with deterministic vectors. It serves both
// API shapes lore speaks: OpenAI-style `POST /v1/embeddings` and Ollama's `POST /api/embed`.
//
// A text's vector is a hashed bag of words: each word (lower-cased, a plural or -ing/-ed ending
// cut) is replaced by its concept from the synonym table below when it has one, hashed to one of
// `dimensions` buckets with a sign, summed and normalised. Words of one concept land in the same
// bucket, so a paraphrase that shares no word with a lesson but shares its concepts lands close to
// it; unrelated texts are near-orthogonal. The table is FROZEN (its SHA-256 is checked by the eval):
// the eval's held-out queries were written after it, so changing it would tune the eval.
//
// `setMode` makes the server misbehave for tests: `hang` (no answer), `status500`, `wrongDim`
// (vectors one shorter than asked for), `garbage` (not JSON). Every request is logged.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';

/** Concept -> the words that mean it. FROZEN: see above. */
export const SYNONYMS = {
  hang: [
    'hang',
    'hung',
    'stuck',
    'freeze',
    'frozen',
    'stall',
    'block',
    'wait',
    'forever',
    'unresponsive',
    'timeout',
  ],
  test: ['test', 'pytest', 'jest', 'vitest', 'mocha', 'runner', 'spec', 'suite', 'unittest'],
  ci: ['ci', 'pipeline', 'github', 'action', 'workflow', 'jenkins', 'headless', 'runner'],
  terminal: ['tty', 'terminal', 'interactive', 'prompt', 'stdin', 'console', 'pty'],
  install: ['install', 'add', 'dependency', 'package', 'npm', 'pip', 'yarn', 'pnpm', 'module'],
  lock: ['lock', 'lockfile', 'pin', 'version', 'exact'],
  git: ['git', 'commit', 'branch', 'rebase', 'merge', 'push', 'pull', 'remote', 'repository'],
  conflict: ['conflict', 'diverge', 'reject', 'behind', 'ahead', 'clash'],
  database: ['database', 'db', 'sql', 'sqlite', 'postgres', 'postgresql', 'mysql', 'table', 'schema'],
  migrate: ['migrate', 'migration', 'alembic', 'upgrade', 'evolve'],
  docker: ['docker', 'container', 'image', 'compose', 'podman', 'kubernetes', 'pod'],
  network: ['network', 'port', 'socket', 'connection', 'connect', 'listen', 'host', 'localhost', 'dns'],
  auth: ['auth', 'token', 'credential', 'login', 'password', 'key', 'secret', 'oauth'],
  expire: ['expire', 'expiry', 'stale', 'refresh', 'renew', 'rotate', 'old'],
  memory: ['memory', 'oom', 'heap', 'ram', 'leak', 'allocation'],
  slow: ['slow', 'sluggish', 'performance', 'latency', 'fast', 'speed', 'crawl'],
  build: ['build', 'compile', 'bundle', 'tsc', 'webpack', 'esbuild', 'transpile'],
  type: ['type', 'typescript', 'typing', 'annotation', 'mypy', 'generic'],
  error: ['error', 'fail', 'failure', 'crash', 'exception', 'break', 'broken', 'panic'],
  path: ['path', 'directory', 'folder', 'file', 'cwd', 'relative', 'absolute'],
  env: ['env', 'environment', 'variable', 'dotenv', 'config', 'setting'],
  python: ['python', 'py', 'venv', 'virtualenv', 'poetry', 'interpreter'],
  node: ['node', 'nodejs', 'javascript', 'js', 'deno', 'bun'],
  date: ['date', 'time', 'timezone', 'tz', 'utc', 'clock', 'timestamp'],
  encode: ['encode', 'encoding', 'utf8', 'unicode', 'charset', 'byte', 'ascii'],
  permission: ['permission', 'denied', 'sudo', 'root', 'chmod', 'access', 'forbidden'],
  delete: ['delete', 'remove', 'rm', 'drop', 'erase', 'wipe', 'destroy'],
  cache: ['cache', 'cached', 'memo', 'invalidate', 'warm'],
  format: ['format', 'lint', 'prettier', 'eslint', 'style', 'ruff', 'black'],
  log: ['log', 'logging', 'print', 'output', 'verbose', 'trace', 'debug'],
  flaky: ['flaky', 'intermittent', 'random', 'sometimes', 'nondeterministic', 'race'],
  parallel: ['parallel', 'concurrent', 'thread', 'worker', 'async', 'simultaneous'],
  http: ['http', 'api', 'request', 'endpoint', 'rest', 'fetch', 'curl', 'url'],
  retry: ['retry', 'again', 'backoff', 'repeat', 'rerun'],
  secret: ['leak', 'expose', 'commit', 'secret'],
  shell: ['shell', 'bash', 'zsh', 'command', 'script', 'quote', 'escape'],
};

const STOP = new Set(
  'a an the and or but of to in on at for with by from is are was were be been it its this that these those my your our their i you we they he she do does did how why what when where which who can cannot not no so if then than into out up over under about as has have had will would should could'.split(
    ' ',
  ),
);

const CONCEPT = new Map();
for (const [concept, words] of Object.entries(SYNONYMS)) {
  for (const word of words) if (!CONCEPT.has(word)) CONCEPT.set(word, concept);
}

/** The table's fingerprint: the eval refuses to run when it differs from the frozen one. */
export function synonymsFingerprint() {
  return createHash('sha256').update(JSON.stringify(SYNONYMS)).digest('hex').slice(0, 16);
}

function stem(word) {
  if (CONCEPT.has(word)) return word;
  for (const suffix of ['ing', 'ed', 'es', 's']) {
    if (word.length > suffix.length + 2 && word.endsWith(suffix)) {
      const base = word.slice(0, -suffix.length);
      if (CONCEPT.has(base)) return base;
      if (suffix !== 's' && CONCEPT.has(`${base}e`)) return `${base}e`;
    }
  }
  return word.length > 3 && word.endsWith('s') ? word.slice(0, -1) : word;
}

function bucket(token, dimensions) {
  const digest = createHash('sha256').update(token).digest();
  return { index: digest.readUInt32BE(0) % dimensions, sign: digest[4] % 2 === 0 ? 1 : -1 };
}

/** The deterministic vector of a text. */
export function embedText(text, dimensions) {
  const vector = new Array(dimensions).fill(0);
  const words = (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => !STOP.has(w));
  for (const word of words) {
    const stemmed = stem(word);
    const token = CONCEPT.has(stemmed) ? `concept:${CONCEPT.get(stemmed)}` : `word:${stemmed}`;
    // concepts weigh more than plain words: they carry the meaning a paraphrase keeps
    const weight = CONCEPT.has(stemmed) ? 2 : 1;
    const { index, sign } = bucket(token, dimensions);
    vector[index] += sign * weight;
  }
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
  if (norm === 0) vector[0] = 1;
  return norm === 0 ? vector : vector.map((x) => x / norm);
}

/**
 * Starts the server. `dimensions`: the vectors' length (default 64). Returns its base URL, the
 * request log, `setMode` and `close`.
 */
export async function startEmbeddingServer(options = {}) {
  const dimensions = options.dimensions ?? 64;
  let mode = options.mode ?? 'ok';
  const requests = [];
  const hanging = new Set();
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8').on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      let body;
      try {
        body = JSON.parse(raw);
      } catch {
        body = {};
      }
      const input = Array.isArray(body.input)
        ? body.input
        : typeof body.input === 'string'
          ? [body.input]
          : [];
      requests.push({ path: req.url, headers: req.headers, model: body.model, input });
      if (mode === 'hang') {
        hanging.add(res);
        return;
      }
      if (mode === 'status500') {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'model failed to load' } }));
        return;
      }
      if (mode === 'garbage') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('<html>not an embedding</html>');
        return;
      }
      const size = mode === 'wrongDim' ? dimensions - 1 : dimensions;
      const vectors = input.map((text) => embedText(String(text), dimensions).slice(0, size));
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url === '/api/embed') {
        res.end(JSON.stringify({ model: body.model, embeddings: vectors }));
      } else if (req.url === '/v1/embeddings') {
        res.end(
          JSON.stringify({
            object: 'list',
            model: body.model,
            // answered in reverse order: `index` says which input each one is
            data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })).reverse(),
            usage: { prompt_tokens: 0, total_tokens: 0 },
          }),
        );
      } else {
        res.writeHead(404);
        res.end('{}');
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    dimensions,
    requests,
    setMode(next) {
      mode = next;
    },
    close() {
      for (const res of hanging) res.destroy();
      hanging.clear();
      server.closeAllConnections?.();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
