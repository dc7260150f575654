/**
 * `new Date(ms).toISOString()` without a Date: the first Date a process makes loads the time zone
 * database (about 0.3 ms), which the hook, answering in milliseconds, does not need for UTC.
 */
const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** The ISO 8601 UTC form of epoch milliseconds, as Date#toISOString gives it (years 0-9999). */
export function utcIso(ms: number): string {
  const days = Math.floor(ms / 86_400_000);
  const inDay = ms - days * 86_400_000;
  // civil date from days since 1970-01-01 (H. Hinnant's algorithm, eras of 400 years)
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(inDay / 3_600_000);
  const minutes = Math.floor((inDay % 3_600_000) / 60_000);
  const seconds = Math.floor((inDay % 60_000) / 1000);
  const millis = Math.floor(inDay % 1000);
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}.${pad(millis, 3)}Z`;
}

/**
 * Whether something stamped at `lastMs` ran within `intervalMs` of `nowMs`. A stamp from the future
 * (the clock was set back, or the file came from another machine) did not: otherwise it would hold
 * off every run until the clock caught up with it, for hours or years.
 */
export function ranWithin(lastMs: number | undefined, nowMs: number, intervalMs: number): boolean {
  if (lastMs === undefined) return false;
  const age = nowMs - lastMs;
  return age >= 0 && age < intervalMs;
}
