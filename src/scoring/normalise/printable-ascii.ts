/** Whether text is printable ASCII (already in NFC, nothing to fold but case): a loop, cheaper than a regex on short arguments. */
export function isPrintableAscii(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code > 0x7e) return false;
  }
  return true;
}
