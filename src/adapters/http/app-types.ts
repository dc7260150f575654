/** The request and response of the in-process app: what node:http (or a test) hands it. */
export type AppRequest = {
  method: string;
  /** The path, without the query. */
  path: string;
  query: URLSearchParams;
  /** Lower-case names. */
  headers: Record<string, string | undefined>;
  /** The raw body ('' when none). */
  body: string;
};

export type AppResponse = {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array;
};
