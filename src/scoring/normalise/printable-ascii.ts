/** Whether text is printable ASCII (already in NFC, nothing to fold but case): a loop, cheaper than a regex on short arguments. */
export function isPrintableAscii(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code > 0x7e) return false;
  }
  return true;
}

/**
 * `text.trim()` when text is printable ASCII (where a space is the only white space), else
 * undefined: what a plain string schema makes of it, without the copy `trim` makes of text that
 * needs no trimming (nearly every argument).
 */
export function trimmedPrintableAscii(text: string): string | undefined {
  if (!isPrintableAscii(text)) return undefined;
  const last = text.length - 1;
  return last < 0 || (text.charCodeAt(0) !== 0x20 && text.charCodeAt(last) !== 0x20)
    ? text
    : text.trim();
}
