/** `text` cut to `max` characters, an ellipsis marking the cut. */
export function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
