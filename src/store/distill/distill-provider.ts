/**
 * The one interface every model behind `lore distill` is reached through: a prompt in, the text
 * of the answer and what it cost out, or a failure that says what went wrong. Providers add no
 * behaviour of their own (no retries, no parsing of the lesson): the caller decides what an
 * answer is worth.
 */

export type CompletionRequest = {
  system: string;
  user: string;
  maxOutputTokens: number;
  timeoutMs: number;
};

export type Usage = {
  inputTokens: number;
  outputTokens: number;
  /** Counted by lore, not reported. */ estimated: boolean;
};

export type FailureKind =
  /** Nothing reached the model: refused connection, unknown host, a program that would not start. */
  | 'unreachable'
  /** No answer within the timeout. */
  | 'timeout'
  /** The endpoint or program answered with an error. */
  | 'error'
  /** An answer that is not the API's shape. */
  | 'malformed';

export type Completion =
  { ok: true; text: string; usage: Usage } | { ok: false; kind: FailureKind; message: string };

export type DistillProvider = {
  /** `anthropic`, `openai` or `command`. */
  name: string;
  model: string | undefined;
  /** Where requests go, for people: a URL or the command line. */
  endpoint: string;
  complete(request: CompletionRequest): Promise<Completion>;
};
