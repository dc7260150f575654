/** The API client: JSON in and out, the bearer token when the page was opened with #token=. */
const TOKEN_KEY = 'lore-token';

export function captureToken(): void {
  const match = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (match?.[1]) {
    sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(match[1]));
    history.replaceState(null, '', `${location.pathname}#/lessons`);
  }
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly hint: string | null,
  ) {
    super(message);
  }
}

export async function api<T>(
  path: string,
  init: { method?: string; body?: unknown; token?: string } = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  // the organisation page sends its own token (an organisation's, not the dashboard's LORE_TOKEN)
  const token = init.token ?? sessionStorage.getItem(TOKEN_KEY);
  if (token) headers.authorization = `Bearer ${token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, {
    method: init.method ?? 'GET',
    headers,
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  const data = (await response.json().catch(() => ({}))) as {
    error?: { code: string; message: string; hint: string | null };
  };
  if (!response.ok) {
    const error = data.error ?? { code: 'http', message: `HTTP ${response.status}`, hint: null };
    throw new ApiError(response.status, error.code, error.message, error.hint);
  }
  return data as T;
}

export function query(params: Record<string, string | string[] | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === '') continue;
    for (const item of Array.isArray(value) ? value : [value])
      if (item !== '') search.append(key, String(item));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}
