/**
 * The Gemini API side of the scripted model server, for Gemini CLI (0.61.0) pointed at it with
 * `GOOGLE_GEMINI_BASE_URL`. The agent's turns stream (`:streamGenerateContent?alt=sse`, one
 * `data:` line per chunk, no event names); a turn is the agent's own when it offers
 * `run_shell_command`. Side requests (`:generateContent`: the next-speaker check, the model
 * router) get one JSON text that answers every schema they ask for; `:countTokens` a count.
 */
import type { ServerResponse } from 'node:http';
import type { Step } from './model-server.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

export function isGeminiRequest(path: string): boolean {
  return /\/models\/[^/]+:(streamGenerateContent|generateContent|countTokens)$/.test(path);
}

/** Function names a request offers. */
function geminiTools(body: Json): string[] {
  return asArray(body.tools).flatMap((tool) =>
    isObject(tool)
      ? asArray(tool.functionDeclarations).flatMap((fn) =>
          isObject(fn) && typeof fn.name === 'string' ? [fn.name] : [],
        )
      : [],
  );
}

function countFunctionResponses(body: Json): number {
  let count = 0;
  for (const content of asArray(body.contents)) {
    if (!isObject(content)) continue;
    for (const part of asArray(content.parts))
      if (isObject(part) && isObject(part.functionResponse)) count += 1;
  }
  return count;
}

export function readGeminiRequest(body: Json): { agentTurn: boolean; toolResults: number } {
  return {
    agentTurn: geminiTools(body).includes('run_shell_command'),
    toolResults: countFunctionResponses(body),
  };
}

const USAGE = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };

/** One reply: a step's text and call as model parts, or the side requests' JSON text. */
export function geminiReply(res: ServerResponse, path: string, step: Step | undefined): void {
  if (path.endsWith(':countTokens')) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ totalTokens: 10 }));
    return;
  }
  const parts: Json[] = [];
  if (step === undefined) {
    parts.push({
      text: JSON.stringify({
        reasoning: 'scripted',
        next_speaker: 'user',
        model_choice: 'flash',
        complexity_score: 1,
        complexity_reasoning: 'scripted',
      }),
    });
  } else if ('text' in step) parts.push({ text: step.text });
  else {
    if (step.say !== undefined) parts.push({ text: step.say });
    const call =
      'bash' in step
        ? { name: 'run_shell_command', args: { command: step.bash, description: 'scripted step' } }
        : { name: step.tool, args: step.input };
    parts.push({ functionCall: call });
  }
  const chunk = {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: USAGE,
    modelVersion: 'gemini-scripted',
  };
  if (path.endsWith(':streamGenerateContent')) {
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'close',
    });
    res.end(`data: ${JSON.stringify(chunk)}\n\n`);
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(chunk));
}
