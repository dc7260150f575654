/** An ISO time as `YYYY-MM-DD HH:MM` (UTC, as stored); empty when there is none. */
export function formatDate(iso: string | null | undefined): string {
  return iso ? iso.slice(0, 16).replace('T', ' ') : '';
}
