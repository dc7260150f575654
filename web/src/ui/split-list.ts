/** A text field holding a list: items separated by commas or new lines, blanks dropped. */
export function splitList(value: string): string[] {
  return value
    .split(/[\n,]/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}
