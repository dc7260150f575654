/** What the router hands every page. */
export type PageContext = {
  /** Where the page renders (#main). */
  main: HTMLElement;
  /** Registers what to undo when the user leaves the page (e.g. a document key handler). */
  onLeave(stop: () => void): void;
};
